import { readFile } from 'node:fs/promises';
import { extname, isAbsolute, relative, resolve, sep } from 'node:path';
import { APP_HOST, APP_SCHEME } from '../ipc/app-origin';

const MIME_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.wasm': 'application/wasm',
  '.txt': 'text/plain; charset=utf-8',
};

export function mimeTypeOf(path: string): string {
  return MIME_TYPES[extname(path).toLowerCase()] ?? 'application/octet-stream';
}

/**
 * Maps an `app://studio/…` URL to a file inside the renderer folder, or null when it is not ours or
 * would leave the folder (`..`, encoded separators, absolute paths, NUL bytes).
 */
export function resolveAppFile(rendererDir: string, url: string): string | null {
  let parsed: URL;
  let pathname: string;
  try {
    parsed = new URL(url);
    pathname = decodeURIComponent(parsed.pathname);
  } catch {
    return null;
  }
  if (parsed.protocol !== `${APP_SCHEME}:` || parsed.host !== APP_HOST) return null;
  if (pathname.includes('\0') || pathname.includes('\\')) return null;
  const root = resolve(rendererDir);
  const file = resolve(root, `.${pathname.endsWith('/') ? `${pathname}index.html` : pathname}`);
  const inside = relative(root, file);
  if (!inside || inside === '..' || inside.startsWith(`..${sep}`) || isAbsolute(inside)) return null;
  return file;
}

function notFound(): Response {
  return new Response('Not found', { status: 404, headers: { 'Content-Type': 'text/plain; charset=utf-8' } });
}

/**
 * Serves one request of the `app://` protocol from the renderer folder, with the CSP on every
 * response. Uses only web-standard Request/Response, so it is tested without Electron.
 */
export async function handleAppRequest(rendererDir: string, request: Request, csp: string): Promise<Response> {
  if (request.method !== 'GET' && request.method !== 'HEAD') return new Response('Method not allowed', { status: 405 });
  const file = resolveAppFile(rendererDir, request.url);
  if (!file) return notFound();
  let body: Buffer;
  try {
    body = await readFile(file);
  } catch {
    return notFound();
  }
  const headers = { 'Content-Type': mimeTypeOf(file), 'Content-Security-Policy': csp, 'X-Content-Type-Options': 'nosniff' };
  return new Response(request.method === 'HEAD' ? null : new Uint8Array(body), { status: 200, headers });
}
