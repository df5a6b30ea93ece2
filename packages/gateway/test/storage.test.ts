// Storage on both databases: migrations, the users and invitations repositories, and the table
// versions that tell every gateway process a cached table is stale.
import type { Product } from '@blockcatch/sdk';
import { describe, expect, it } from 'vitest';
import { readTableVersion } from '../src/api/table-cache.js';
import { sweepLapsedStanding } from '../src/payments/settle.js';
import { flexUserRow } from '../src/seed.js';
import type { Db } from '../src/storage/db.js';
import { insertInvitations, listInvitations } from '../src/storage/invitations.js';
import { migrate, splitStatements } from '../src/storage/migrate.js';
import { migrations } from '../src/storage/migrations/index.js';
import {
  countUsers,
  findUserByPhone,
  insertUsers,
  listReferralCodes,
  listUsers,
  toFlexUser,
  toSparkUser,
  usersTableItemsChunks,
} from '../src/storage/users.js';
import { DATABASE_KINDS, openTestDatabase } from './helpers/database.js';
import { flexUsers, invitations } from './helpers/people.js';

/** The `Items` array's text of the users table answer, built a page of `pageRows` at a time. */
async function usersTableJson(db: Db, product: Product, pageRows?: number): Promise<string> {
  const answer = Buffer.concat(await usersTableItemsChunks(db, product, pageRows)).toString('utf8');
  expect(answer.startsWith('{"Items":') && answer.endsWith('}')).toBe(true);
  return answer.slice('{"Items":'.length, -1);
}

describe('splitStatements', () => {
  it('keeps a $$-quoted function body whole while splitting the statements around it', () => {
    const sql = `CREATE TABLE a (x int);
CREATE FUNCTION f() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE a SET x = 1;
  RETURN NULL;
END;
$$;
SELECT 1;`;
    const statements = splitStatements(sql);
    expect(statements).toHaveLength(3);
    expect(statements[1]).toContain('RETURN NULL;\nEND;\n$$');
  });
});

describe.each(DATABASE_KINDS)('storage on %s', (kind) => {
  it('applies every migration once; a second run applies none', async () => {
    const { db, drop } = await openTestDatabase(kind);
    try {
      expect(await migrate(db)).toEqual([]);
      const applied = await db.query<{ id: string }>(
        'SELECT id FROM schema_migrations ORDER BY id',
      );
      expect(applied.map((r) => r.id)).toEqual(migrations.map((m) => m.id));
    } finally {
      await drop();
    }
  });

  it('inserts a generator of users past one statement, skipping a phone repeated within it', async () => {
    const { db, drop } = await openTestDatabase(kind);
    try {
      const rows = 10_050;
      function* users() {
        for (let i = 0; i < rows; i++) {
          yield {
            product: 'flex' as const,
            phone_number: `+1555${String(i).padStart(7, '0')}`,
            name: `Driver ${i}`,
            create_date_ts: 1_700_000_000_000 + i,
            good_standing: i % 2 === 0,
            expiration_ts: i % 3 === 0 ? null : 1_800_000_000_000 + i,
          };
        }
        // The first phone again, in the last statement: kept as it was.
        yield { product: 'flex' as const, phone_number: '+15550000000', name: 'Again' };
      }
      expect(await insertUsers(db, users())).toBe(rows);
      expect(await countUsers(db)).toBe(rows);
      const first = await findUserByPhone(db, 'flex', '+15550000000');
      expect(first).toMatchObject({ name: 'Driver 0', good_standing: true, expiration_ts: null });
      const last = await findUserByPhone(db, 'flex', `+1555${String(rows - 1).padStart(7, '0')}`);
      expect(last).toMatchObject({
        name: `Driver ${rows - 1}`,
        good_standing: false,
        expiration_ts: 1_800_000_000_000 + rows - 1,
        create_date_ts: 1_700_000_000_000 + rows - 1,
        status: 'stop',
        is_admin: false,
        role: null,
      });
    } finally {
      await drop();
    }
  });

  it('inserts users in chunks, skips a phone already there, and reads them back in API shape', async () => {
    const { db, drop } = await openTestDatabase(kind);
    try {
      const rows = flexUsers.map(flexUserRow);
      expect(await insertUsers(db, rows)).toBe(rows.length);
      expect(await insertUsers(db, rows.slice(0, 10))).toBe(0);
      expect(await countUsers(db)).toBe(rows.length);
      const listed = (await listUsers(db, 'flex')).map(toFlexUser);
      const expected = flexUsers.map(({ referralCode: _code, ...user }) => user);
      expect(listed).toEqual(
        [...expected].sort((a, b) => a.createDateTimestamp - b.createDateTimestamp),
      );
      const first = await findUserByPhone(db, 'flex', flexUsers[0]!.phoneNumber);
      expect(first?.name).toBe(flexUsers[0]!.name);
      expect(await findUserByPhone(db, 'spark', flexUsers[0]!.phoneNumber)).toBeNull();
      const codes = await listReferralCodes(db);
      expect(codes).toEqual([...new Set(codes)].sort());
    } finally {
      await drop();
    }
  });

  it('stores invitations with their normalized phone and lists them oldest first', async () => {
    const { db, drop } = await openTestDatabase(kind);
    try {
      expect(await insertInvitations(db, invitations)).toBe(invitations.length);
      expect(await listInvitations(db)).toEqual(invitations);
      const [typed] = await db.query<{ phone_number: string; normalized_phone: string | null }>(
        `SELECT phone_number, normalized_phone FROM invitations WHERE phone_number LIKE '(%' LIMIT 1`,
      );
      expect(typed?.normalized_phone).toMatch(/^\+1\d{10}$/);
    } finally {
      await drop();
    }
  });

  it('writes the users table byte for byte as JSON.stringify of the rows, separators in values too', async () => {
    const { db, drop } = await openTestDatabase(kind);
    try {
      const awkward = 'Zoë "Z" O\'Brien \\ tab\tline\nbell\u0007 ✓ 𝄞';
      await insertUsers(db, [
        ...flexUsers.slice(0, 20).map(flexUserRow),
        {
          product: 'flex',
          phone_number: '+15550000001',
          name: awkward,
          referral: awkward,
          human_region: null,
          expiration_ts: 1_767_225_599_999,
          stripe_express_id: 'acct_1',
        },
        { product: 'flex', phone_number: '+15550000002', name: 'No Pay', expiration_ts: null },
        // The separators the pages are read with, inside values: that page is read again as rows.
        {
          product: 'flex',
          phone_number: '+15550000005',
          name: 'Row\u001eforged\u001fcolumn',
          referral: '\u001f',
        },
        {
          product: 'spark',
          phone_number: '+15550000003',
          name: awkward,
          delivery_area: awkward,
          expiration_ts: 86_400_001,
        },
        { product: 'spark', phone_number: '+15550000004', name: 'Area-less' },
      ]);
      const flexTable = JSON.stringify((await listUsers(db, 'flex')).map(toFlexUser));
      expect(await usersTableJson(db, 'flex')).toBe(flexTable);
      // Built a page at a time, rows sharing a creation time included, it is the same text.
      for (const pageRows of [1, 4, 23]) {
        expect(await usersTableJson(db, 'flex', pageRows)).toBe(flexTable);
      }
      expect(await usersTableJson(db, 'spark')).toBe(
        JSON.stringify((await listUsers(db, 'spark')).map(toSparkUser)),
      );
      // Every write shows: updates of each column the table shows, a phone number moved, a user
      // deleted.
      await db.query(
        `UPDATE users SET name = $1, status = 'start', good_standing = NOT good_standing,
           proxy_installed = true, setup_complete = true, expiration_ts = 1767225599999, referral = $1
         WHERE phone_number = '+15550000002'`,
        [awkward],
      );
      await db.query(
        `UPDATE users SET human_region = 'Ciudad Juárez', stripe_express_id = NULL, referral = NULL,
           expiration_ts = NULL, phone_number = '+15550000009' WHERE phone_number = '+15550000001'`,
      );
      await db.query(`UPDATE users SET delivery_area = 'Area "9"' WHERE product = 'spark'`);
      await db.query(
        `DELETE FROM users WHERE id = (SELECT id FROM users WHERE product = 'flex'
           ORDER BY create_date_ts, id LIMIT 1)`,
      );
      const changed = JSON.stringify((await listUsers(db, 'flex')).map(toFlexUser));
      expect(changed).not.toBe(flexTable);
      expect(await usersTableJson(db, 'flex')).toBe(changed);
      expect(await usersTableJson(db, 'flex', 3)).toBe(changed);
      expect(await usersTableJson(db, 'spark')).toBe(
        JSON.stringify((await listUsers(db, 'spark')).map(toSparkUser)),
      );
      await db.query('DELETE FROM users');
      expect(await usersTableJson(db, 'flex')).toBe('[]');
      expect(Buffer.concat(await usersTableItemsChunks(db, 'flex')).toString('utf8')).toBe(
        '{"Items":[]}',
      );
    } finally {
      await drop();
    }
  });

  it('bumps the users table version on every write, and only then', async () => {
    const { db, drop } = await openTestDatabase(kind);
    try {
      const v0 = await readTableVersion(db, 'users');
      expect(await readTableVersion(db, 'users')).toBe(v0);
      await insertUsers(db, flexUsers.slice(0, 3).map(flexUserRow));
      const v1 = await readTableVersion(db, 'users');
      expect(v1).toBeGreaterThan(v0);
      await db.query(`UPDATE users SET status = 'start'`);
      const v2 = await readTableVersion(db, 'users');
      expect(v2).toBeGreaterThan(v1);
      await db.query('DELETE FROM users');
      expect(await readTableVersion(db, 'users')).toBeGreaterThan(v2);
      const i0 = await readTableVersion(db, 'invitations');
      await insertInvitations(db, invitations.slice(0, 2));
      expect(await readTableVersion(db, 'invitations')).toBeGreaterThan(i0);
    } finally {
      await drop();
    }
  });

  it('takes good standing from exactly the users whose time ran out, a batch at a time', async () => {
    const { db, drop } = await openTestDatabase(kind);
    try {
      const now = 1_800_000_000_000;
      // Seven lapsed (one at the very moment), three still paid up, one never paid, one lapsed
      // long ago and already out of standing.
      const expirations = [1, 2, 3, 4, 5, 6, 0].map((days) => now - days * 86_400_000);
      const rows = flexUsers.slice(0, 12).map((user, i) => ({
        ...flexUserRow(user),
        good_standing: i !== 11,
        expiration_ts:
          i < 7 ? expirations[i]! : i < 10 ? now + i * 3_600_000 : i === 10 ? null : now - 9e9,
      }));
      await insertUsers(db, rows);
      const standing = async () =>
        (
          await db.query<{ phone_number: string }>(
            'SELECT phone_number FROM users WHERE good_standing ORDER BY phone_number',
          )
        ).map((row) => row.phone_number);
      const kept = rows
        .filter((_, i) => i >= 7 && i <= 10)
        .map((row) => row.phone_number)
        .sort();
      // Batches of two: four statements, the last short.
      expect(await sweepLapsedStanding(db, now, 2)).toBe(7);
      expect(await standing()).toEqual(kept);
      expect(await sweepLapsedStanding(db, now, 2)).toBe(0);
      expect(await standing()).toEqual(kept);
    } finally {
      await drop();
    }
  });

  it('leaves the versions alone for writes that change no row', async () => {
    const { db, drop } = await openTestDatabase(kind);
    try {
      const rows = flexUsers.slice(0, 3).map(flexUserRow);
      await insertUsers(db, rows);
      await insertInvitations(db, invitations.slice(0, 2));
      const users = await readTableVersion(db, 'users');
      const invited = await readTableVersion(db, 'invitations');
      // A sweep finding nobody, a save of the same values, a repeated insert, a delete of nobody.
      expect(await sweepLapsedStanding(db, 0)).toBe(0);
      await db.query('UPDATE users SET status = status, name = name');
      expect(await insertUsers(db, rows)).toBe(0);
      await db.query(`DELETE FROM users WHERE id = 'nobody'`);
      await db.query('UPDATE invitations SET free_week = free_week');
      expect(await readTableVersion(db, 'users')).toBe(users);
      expect(await readTableVersion(db, 'invitations')).toBe(invited);
      await db.query(`UPDATE users SET name = name || '!' WHERE phone_number = $1`, [
        rows[0]!.phone_number,
      ]);
      expect(await readTableVersion(db, 'users')).toBeGreaterThan(users);
    } finally {
      await drop();
    }
  });

  it('does not bump the version for a write that is rolled back', async () => {
    const { db, drop } = await openTestDatabase(kind);
    try {
      const before = await readTableVersion(db, 'users');
      await expect(
        db.transaction(async (tx) => {
          await insertUsers(tx, flexUsers.slice(0, 2).map(flexUserRow));
          throw new Error('changed my mind');
        }),
      ).rejects.toThrow('changed my mind');
      expect(await readTableVersion(db, 'users')).toBe(before);
    } finally {
      await drop();
    }
  });
});
