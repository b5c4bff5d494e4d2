/** Where the studio keeps the API key it signed in with: this tab's session storage, gone when the tab closes. */
export const API_KEY_STORAGE_KEY = 'yukta.api-key';

/** The parts of Web Storage the credentials use (tests pass a Map-backed one). */
export interface KeyStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

/**
 * The API key of a browser studio (SEC-01), kept in `sessionStorage` (never localStorage, never a URL)
 * and read at every call, so signing in or out takes effect at once. `rejected` tells the sign-in screen
 * when the server refused the key (revoked, or wrong).
 */
export interface Credentials {
  key(): string | null;
  store(key: string): void;
  clear(): void;
  /** The server answered 401 to a call made with a key. */
  rejected(message: string): void;
  onRejected(listener: (message: string) => void): () => void;
}

export function createCredentials(storage: KeyStorage | null): Credentials {
  const listeners = new Set<(message: string) => void>();
  return {
    key: () => storage?.getItem(API_KEY_STORAGE_KEY) ?? null,
    store: (key) => storage?.setItem(API_KEY_STORAGE_KEY, key),
    clear: () => storage?.removeItem(API_KEY_STORAGE_KEY),
    rejected: (message) => {
      for (const listener of listeners) listener(message);
    },
    onRejected(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

/** The page's session storage, or null where there is none (or it is blocked). */
export function browserSessionStorage(scope: unknown = globalThis): KeyStorage | null {
  try {
    const storage = (scope as { sessionStorage?: KeyStorage }).sessionStorage;
    return storage ?? null;
  } catch {
    return null;
  }
}
