// Verified id tokens and their callers, kept a few seconds so that an authenticated request costs
// no query: the versions of the users table and of sign-in state are read at most once per
// interval for the whole process. A sign-out, a revoked or deleted session, a changed account or
// any change to a user row moves one of them; every gateway process sees it within the interval,
// and the process that made the change at once (it calls `forgetVersions`).
import type { Queryable } from '../storage/db.js';

interface Verified {
  claims: { exp: number };
}

interface Versions {
  users: number;
  identity: number;
}

interface Entry<P> extends Versions {
  principal: P;
  until: number;
}

export interface PrincipalCacheOptions {
  /** How long an entry lives (setting `principalCacheTtlMs`); 0 keeps nothing. */
  ttlMs: number;
  /** Entries kept at most, the oldest going first (setting `principalCacheMaxEntries`). */
  maxEntries: number;
  /** How long a read of the versions is trusted (setting `principalVersionCheckMs`); 0: every request. */
  versionCheckMs: number;
  /** Epoch ms. */
  now?: () => number;
}

export interface PrincipalCache<P> {
  /**
   * The principal `verify` gave for `token`, while neither version moved, the token has not
   * expired and the entry is younger than the TTL; otherwise `verify` runs again. The versions
   * are read before `verify`, so a write landing during it leaves the entry under older
   * versions, to be verified again once the versions are read next.
   */
  principalFor(token: string, verify: () => Promise<P>): Promise<P>;
  /** Reads the versions on the next request: this process has just changed sign-in state or users. */
  forgetVersions(): void;
}

export function cachePrincipals<P extends Verified>(
  db: Queryable,
  options: PrincipalCacheOptions,
): PrincipalCache<P> {
  const { ttlMs: ttl, maxEntries: max, versionCheckMs } = options;
  const now = options.now ?? Date.now;
  const entries = new Map<string, Entry<P>>();
  let known: Versions | null = null;
  let readAt = Number.NEGATIVE_INFINITY;
  let reading: Promise<Versions> | null = null;
  // A read that began before forgetVersions must not be kept as fresh.
  let generation = 0;

  function currentVersions(): Promise<Versions> | Versions {
    const at = now();
    if (known && at - readAt < versionCheckMs) return known;
    if (!reading) {
      const started = generation;
      const read = readVersions(db).then(
        (versions) => {
          if (generation === started) {
            known = versions;
            readAt = at;
          }
          if (reading === read) reading = null;
          return versions;
        },
        (error: unknown) => {
          if (reading === read) reading = null;
          throw error;
        },
      );
      reading = read;
    }
    return reading;
  }

  return {
    async principalFor(token, verify) {
      const { users, identity } = await currentVersions();
      const at = now();
      const entry = entries.get(token);
      if (
        entry &&
        entry.users === users &&
        entry.identity === identity &&
        at < entry.until &&
        at < entry.principal.claims.exp * 1000
      ) {
        return entry.principal;
      }
      entries.delete(token);
      const principal = await verify();
      if (ttl > 0) {
        if (entries.size >= max) entries.delete(entries.keys().next().value!);
        entries.set(token, { principal, users, identity, until: at + ttl });
      }
      return principal;
    },
    forgetVersions() {
      generation++;
      known = null;
      reading = null;
    },
  };
}

async function readVersions(db: Queryable): Promise<Versions> {
  const rows = await db.query<{ name: string; version: number }>(
    `SELECT name, version FROM table_versions WHERE name IN ('users', 'identity')`,
  );
  const versions = { users: -1, identity: -1 };
  for (const row of rows) {
    if (row.name === 'users' || row.name === 'identity') versions[row.name] = Number(row.version);
  }
  return versions;
}
