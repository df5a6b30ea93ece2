// Loads admin tables through the SDK once per signed-in admin and tab: screens that share a table
// (users, invitations) share the request, and a failed load is retried on the next visit.
import { useEffect, useState } from 'react';
import { useAuth } from '../useAuth.js';

export type QueryState<T> =
  | { status: 'loading' }
  | { status: 'error'; error: unknown }
  | { status: 'ready'; data: T };

const cache = new Map<string, Promise<unknown>>();

/** `load` runs once per `key` until it fails; `enabled: false` (no permission) never calls it. */
export function useGatewayQuery<T>(
  key: string,
  load: () => Promise<T>,
  enabled = true,
): QueryState<T> {
  const { state: auth } = useAuth();
  // Keyed by who asks too: another account signing in on this tab must not see the last one's tables.
  const cacheKey = `${auth.status === 'signed-in' ? auth.session.phoneNumber : ''}|${key}`;
  const [state, setState] = useState<QueryState<T>>({ status: 'loading' });
  // `load` is a fresh closure every render; the key names what it loads.
  // biome-ignore lint/correctness/useExhaustiveDependencies: keyed by `cacheKey`
  useEffect(() => {
    if (!enabled) return;
    const key = cacheKey;
    let live = true;
    let pending = cache.get(key) as Promise<T> | undefined;
    if (!pending) {
      pending = load();
      cache.set(key, pending);
      pending.catch(() => cache.delete(key));
    }
    setState({ status: 'loading' });
    pending.then(
      (data) => live && setState({ status: 'ready', data }),
      (error: unknown) => live && setState({ status: 'error', error }),
    );
    return () => {
      live = false;
    };
  }, [cacheKey, enabled]);
  return state;
}

/** The data when ready, else undefined: for lists built only once every table has arrived. */
export function dataOf<T>(state: QueryState<T>): T | undefined {
  return state.status === 'ready' ? state.data : undefined;
}
