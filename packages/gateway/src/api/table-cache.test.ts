// The users table's answer is served from one cached body while the table's version stays the same;
// the version reads of requests that arrive together are shared, yet no request is answered from a
// version read that began before it arrived.
import { describe, expect, it } from 'vitest';
import type { Queryable } from '../storage/db.js';
import { cacheTableBody } from './table-cache.js';

/** A database whose table version reads wait until the test lets each one answer. */
function heldVersions() {
  let version = 1;
  const pending: (() => void)[] = [];
  let reads = 0;
  const db = {
    query: async (sql: string) => {
      expect(sql).toContain('table_versions');
      reads++;
      // The version as the read began: the snapshot it answers from.
      const seen = version;
      await new Promise<void>((resolve) => pending.push(resolve));
      return [{ version: seen }];
    },
  } as unknown as Queryable;
  return {
    db,
    /** A write commits: the version moves on for reads answered from now on. */
    write: () => {
      version++;
    },
    /** Answers every read waiting now; resolves once the callers have seen the answers. */
    answer: async () => {
      for (const resolve of pending.splice(0)) resolve();
      for (let i = 0; i < 10; i++) await Promise.resolve();
    },
    reads: () => reads,
  };
}

describe('the table cache', () => {
  it('shares one version read among the requests that arrive while one is under way', async () => {
    const held = heldVersions();
    let builds = 0;
    const cache = cacheTableBody(held.db, 'users', async () => `{"build":${++builds}}`);
    const first = cache.get();
    const together = Array.from({ length: 50 }, () => cache.get());
    expect(held.reads()).toBe(1);
    await held.answer();
    expect(held.reads()).toBe(2);
    await held.answer();
    const bodies = await Promise.all([first, ...together]);
    expect(new Set(bodies.map((b) => Buffer.concat(b.chunks).toString()))).toEqual(
      new Set(['{"build":1}']),
    );
    expect(builds).toBe(1);
  });

  it('answers a request that arrives after a write with the new rows, even while an older read is under way', async () => {
    const held = heldVersions();
    let builds = 0;
    const cache = cacheTableBody(held.db, 'users', async () => `{"build":${++builds}}`);
    const before = cache.get();
    // The write commits after the first read began and before the second request arrives.
    held.write();
    const after = cache.get();
    await held.answer();
    await held.answer();
    expect(Buffer.concat((await after).chunks).toString()).toBe('{"build":2}');
    // The first request's read began before the write: it is answered from the rows before it.
    expect(Buffer.concat((await before).chunks).toString()).toBe('{"build":1}');
  });
});
