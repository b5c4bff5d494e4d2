/** The renderer's origin in the desktop app: files of dist/renderer served by the `app://studio/` protocol. */
export const APP_SCHEME = 'app';
export const APP_HOST = 'studio';
export const APP_ROOT_URL = `${APP_SCHEME}://${APP_HOST}/`;

function parse(url: string): URL | null {
  try {
    return new URL(url);
  } catch {
    return null;
  }
}

/**
 * True when a URL belongs to the studio's own pages: `app://studio/…`, or the dev server's origin when
 * one is given. URLs are parsed, never prefix-matched (`app://studio.evil/` is not ours).
 */
export function isAppUrl(url: string, devServerUrl?: string): boolean {
  const parsed = parse(url);
  if (!parsed) return false;
  if (parsed.protocol === `${APP_SCHEME}:` && parsed.host === APP_HOST && !parsed.username && !parsed.password) return true;
  if (!devServerUrl) return false;
  const dev = parse(devServerUrl);
  // Custom schemes have an opaque origin ("null"); only compare real ones.
  return dev !== null && dev.origin !== 'null' && parsed.origin === dev.origin;
}
