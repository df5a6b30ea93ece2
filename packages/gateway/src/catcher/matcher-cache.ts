// Compiled offer matchers shared by the drivers whose filters are the same: a compiled matcher
// weighs about 2 KB, and drivers of one warehouse often save the same filters. An entry lives
// while a driver uses it.
import { createOfferMatcher, type DriverFilters, type OfferMatcher } from '@blockcatch/sdk';

export interface SharedMatcher {
  readonly matcher: OfferMatcher;
  readonly key: string;
  users: number;
}

export interface MatcherCache {
  /** The matcher for `filters`, compiled now unless another driver's filters were the same. */
  acquire(filters: DriverFilters): SharedMatcher;
  release(shared: SharedMatcher): void;
  readonly size: number;
}

export function createMatcherCache(): MatcherCache {
  const byKey = new Map<string, SharedMatcher>();
  return {
    acquire(filters) {
      // The lease round reads filters from jsonb, whose key order is fixed: equal filters give
      // equal text.
      const key = JSON.stringify(filters);
      let shared = byKey.get(key);
      if (!shared) {
        shared = { matcher: createOfferMatcher(filters), key, users: 0 };
        byKey.set(key, shared);
      }
      shared.users++;
      return shared;
    },
    release(shared) {
      shared.users--;
      if (shared.users <= 0) byKey.delete(shared.key);
    },
    get size() {
      return byKey.size;
    },
  };
}
