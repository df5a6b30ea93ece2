// Where a session's tokens are kept between runs: the shape amazon-cognito-identity-js expects for
// its `Storage` option, with a memory store (tests, servers) and a localStorage store (web).
// The CLI's file store is Node-only and lives in file-session-store.ts.
import { ConfigError } from '../errors.js';
import { SESSION_KEY_PREFIXES } from './session-keys.js';

export { SESSION_KEY_PREFIXES };

/** A synchronous string store; amazon-cognito-identity-js reads and writes tokens through it. */
export interface SessionStore {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
  clear(): void;
}

export function createMemorySessionStore(initial: Record<string, string> = {}): SessionStore {
  const items = new Map(Object.entries(initial));
  return {
    getItem: (key) => items.get(key) ?? null,
    setItem: (key, value) => {
      items.set(key, value);
    },
    removeItem: (key) => {
      items.delete(key);
    },
    clear: () => items.clear(),
  };
}

/** What `window.localStorage` offers; passed in so tests and other windows can supply their own. */
export interface WebStorage {
  readonly length: number;
  key(index: number): string | null;
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

/**
 * The web app's store. `clear()` removes only this SDK's keys: the page's other settings (the
 * interface language, for one) live in the same localStorage.
 */
export function createLocalStorageSessionStore(
  storage: WebStorage | undefined = (globalThis as { localStorage?: WebStorage }).localStorage,
): SessionStore {
  if (!storage) {
    throw new ConfigError('localStorage is not available here: use createMemorySessionStore().');
  }
  return {
    getItem: (key) => storage.getItem(key),
    setItem: (key, value) => storage.setItem(key, value),
    removeItem: (key) => storage.removeItem(key),
    clear: () => {
      const ours: string[] = [];
      for (let i = 0; i < storage.length; i++) {
        const key = storage.key(i);
        if (key && SESSION_KEY_PREFIXES.some((prefix) => key.startsWith(prefix))) ours.push(key);
      }
      for (const key of ours) storage.removeItem(key);
    },
  };
}
