// The SDK's auth and gateway client (sdk.ts, with the identity library, its crypto and zod) are
// kept out of the first load of /: an anonymous visitor sees the landing page before they arrive.
import { SESSION_KEY_PREFIXES } from '@blockcatch/sdk';

let loading: Promise<typeof import('../sdk.js')> | null = null;

/** sdk.ts, fetched once on first use. */
export function loadSdk(): Promise<typeof import('../sdk.js')> {
  loading ??= import('../sdk.js');
  return loading;
}

/** The identity library keeps a session's last user under `<prefix><clientId><this suffix>`. */
export const SESSION_PREFIX = SESSION_KEY_PREFIXES[0];
export const LAST_USER_SUFFIX = '.LastAuthUser';

/**
 * Whether this browser holds a session the SDK could resume: the identity library keeps the
 * last user under `<prefix><clientId>.LastAuthUser`. Without one the visitor is anonymous, and
 * nothing needs the SDK yet.
 */
export function hasStoredSession(): boolean {
  try {
    const storage = window.localStorage;
    for (let i = 0; i < storage.length; i++) {
      const key = storage.key(i);
      if (key?.startsWith(SESSION_PREFIX) && key.endsWith(LAST_USER_SUFFIX)) return true;
    }
  } catch {
    // Storage blocked (private mode, policy): no session can have been kept either.
  }
  return false;
}
