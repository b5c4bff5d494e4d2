import type { useStudio } from '../../store/studio-store';

/** The version banner: a refusal shown, or cleared once a version action succeeds. */
export interface VersionBanner {
  fail(message: string): void;
  clear(): void;
}

export function versionBanner(studio: typeof useStudio): VersionBanner {
  return {
    fail: (message) => studio.getState().showBanner({ kind: 'version-error', message }),
    clear: () => {
      if (studio.getState().banner?.kind === 'version-error') studio.getState().showBanner(null);
    },
  };
}
