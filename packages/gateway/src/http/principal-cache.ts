// Verified id tokens and their callers, kept a few seconds so that an authenticated request costs
// one query: the versions of the users table and of sign-in state, read together. A sign-out, a
// revoked or deleted session, a changed account or any change to a user row moves one of them, and
// every gateway process on the database then verifies again before answering.
import type { Queryable } from '../storage/db.js';

interface Verified {
  claims: { exp: number };
}

interface Entry<P> {
  principal: P;
  users: number;
  identity: number;
  until: number;
}

export interface PrincipalCacheOptions {
  /** How long an entry lives (setting `principalCacheTtlMs`); 0 keeps nothing. */
  ttlMs: number;
  /** Entries kept at most, the oldest going first (setting `principalCacheMaxEntries`). */
  maxEntries: number;
  /** Epoch ms. */
  now?: () => number;
}

/**
 * `principalFor(token, verify)`: the principal `verify` gave for `token`, while neither version
 * moved, the token has not expired and the entry is younger than the TTL; otherwise `verify`
 * runs again. The versions are read before `verify`, so a write landing during it leaves the
 * entry under older versions, to be verified again on the next request.
 */
export function cachePrincipals<P extends Verified>(db: Queryable, options: PrincipalCacheOptions) {
  const { ttlMs: ttl, maxEntries: max } = options;
  const now = options.now ?? Date.now;
  const entries = new Map<string, Entry<P>>();

  return async function principalFor(token: string, verify: () => Promise<P>): Promise<P> {
    const { users, identity } = await readVersions(db);
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
  };
}

async function readVersions(db: Queryable): Promise<{ users: number; identity: number }> {
  const rows = await db.query<{ name: string; version: number }>(
    `SELECT name, version FROM table_versions WHERE name IN ('users', 'identity')`,
  );
  const versions = { users: -1, identity: -1 };
  for (const row of rows) {
    if (row.name === 'users' || row.name === 'identity') versions[row.name] = Number(row.version);
  }
  return versions;
}
