// The principal cache against a real database and a clock the test moves: a sign-out or user
// change made elsewhere ends the reuse once the version interval has passed, and not before.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Db, openDatabase } from '../storage/db.js';
import { migrate } from '../storage/migrate.js';
import { cachePrincipals } from './principal-cache.js';

const INTERVAL = 1000;
let db: Db;
let queries = 0;

beforeAll(async () => {
  const opened = await openDatabase({ kind: 'pglite' });
  await migrate(opened);
  db = {
    ...opened,
    kind: opened.kind,
    query: <T>(sql: string, params?: unknown[]) => {
      queries++;
      return opened.query<T>(sql, params);
    },
    transaction: opened.transaction.bind(opened),
    close: opened.close.bind(opened),
  };
});

afterAll(async () => {
  await db?.close();
});

function setUp() {
  let clock = 1_700_000_000_000;
  const cache = cachePrincipals<{ claims: { exp: number }; name: string }>(db, {
    ttlMs: 30_000,
    maxEntries: 100,
    versionCheckMs: INTERVAL,
    now: () => clock,
  });
  let verified = 0;
  const verify = async () => {
    verified++;
    return { claims: { exp: clock / 1000 + 3600 }, name: `verified ${verified}` };
  };
  return {
    principalFor: (token: string) => cache.principalFor(token, verify),
    forget: cache.forgetVersions,
    advance: (ms: number) => {
      clock += ms;
    },
    verified: () => verified,
  };
}

const signOutElsewhere = () =>
  db.query(`UPDATE table_versions SET version = version + 1 WHERE name = 'identity'`);

describe('the principal cache', () => {
  it('reads the versions once per interval, however many requests come', async () => {
    const cache = setUp();
    const before = queries;
    for (let i = 0; i < 20; i++) await cache.principalFor('token-a');
    expect(queries - before).toBe(1);
    expect(cache.verified()).toBe(1);
    cache.advance(INTERVAL);
    await cache.principalFor('token-a');
    expect(queries - before).toBe(2);
  });

  it('verifies again once the interval has passed after a sign-out elsewhere', async () => {
    const cache = setUp();
    await cache.principalFor('token-b');
    await signOutElsewhere();
    cache.advance(INTERVAL - 1);
    expect((await cache.principalFor('token-b')).name).toBe('verified 1');
    cache.advance(1);
    expect((await cache.principalFor('token-b')).name).toBe('verified 2');
  });

  it('verifies again at once after a change made through this process', async () => {
    const cache = setUp();
    await cache.principalFor('token-c');
    await signOutElsewhere();
    cache.forget();
    expect((await cache.principalFor('token-c')).name).toBe('verified 2');
  });
});
