// Seeding on first start: the fixtures land once, staff can sign in with the printed passwords, and
// a database that already holds users is left alone.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Dataset } from '../../../fixtures/generate-data.js';
import { readFixtures } from '../src/seed.js';
import { buildGateway, type Gateway } from '../src/server.js';
import { openDatabase } from '../src/storage/db.js';
import { countInvitations } from '../src/storage/invitations.js';
import { countUsers, insertUsers } from '../src/storage/users.js';
import { POSTGRES_URL, uniqueSchema } from './helpers/database.js';
import { writeFixturesDir } from './helpers/fixtures-dir.js';
import { signIn } from './helpers/sign-in.js';

let fixturesDir: string;
let data: Dataset;
const cleanup: string[] = [];

beforeAll(async () => {
  ({ dir: fixturesDir, data } = await writeFixturesDir());
  cleanup.push(fixturesDir);
});

afterAll(async () => {
  for (const dir of cleanup) await rm(dir, { recursive: true, force: true });
});

async function listening(gateway: Gateway): Promise<string> {
  await gateway.app.listen({ host: '127.0.0.1', port: 0 });
  const address = gateway.app.server.address();
  return `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
}

describe('seeding', () => {
  it('loads the fixtures on the first start only, and staff sign in with their passwords', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'blockcatch-data-'));
    cleanup.push(dataDir);
    const expectedUsers = data.flexUsers.length + data.sparkUsers.length + data.staff.length;

    const first = await buildGateway({ port: 0, logLevel: 'silent', dataDir, fixturesDir });
    try {
      expect(first.seed).toMatchObject({
        seeded: true,
        counts: {
          flexUsers: data.flexUsers.length,
          sparkUsers: data.sparkUsers.length,
          invitations: data.invitations.length,
          templates: data.templates.length,
        },
      });
      expect(first.seed?.staff.map((s) => s.role)).toEqual(['owner', 'admin', 'driver']);
      expect(await countUsers(first.db)).toBe(expectedUsers);
      const url = await listening(first);
      for (const member of data.staff) {
        await expect(
          signIn(url, first.config.clientId, member.phoneNumber, member.password),
        ).resolves.toMatch(/^ey/);
      }
    } finally {
      await first.close();
    }

    const second = await buildGateway({ port: 0, logLevel: 'silent', dataDir, fixturesDir });
    try {
      expect(second.seed?.seeded).toBe(false);
      expect(await countUsers(second.db)).toBe(expectedUsers);
      expect(await countInvitations(second.db)).toBe(data.invitations.length);
      const templates = await second.db.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM whatsapp_templates',
      );
      expect(templates[0]?.n).toBe(data.templates.length);
    } finally {
      await second.close();
    }
  });

  it('gives the staff accounts weeks of service from the day the sandbox is seeded', async () => {
    const gateway = await buildGateway({ port: 0, logLevel: 'silent', fixturesDir });
    try {
      const rows = await gateway.db.query<{ phone_number: string; expiration_ts: number }>(
        'SELECT phone_number, expiration_ts FROM users WHERE phone_number = ANY($1)',
        [data.staff.map((member) => member.phoneNumber)],
      );
      expect(rows).toHaveLength(data.staff.length);
      for (const row of rows) {
        expect(row.expiration_ts).toBeGreaterThanOrEqual(Date.now() + 27 * 24 * 3_600_000);
      }
      // The fixtures are dated: the seeded driver's own expiration lies in the past of this run.
      const driver = data.staff.find((member) => !member.isAdmin)!;
      expect(driver.expirationDateTimestamp).toBeLessThan(Date.now());
    } finally {
      await gateway.close();
    }
  });

  it('leaves a database that already has users alone, and creates no staff accounts in it', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'blockcatch-data-'));
    cleanup.push(dataDir);
    const setup = await buildGateway({ port: 0, logLevel: 'silent', dataDir, seed: false });
    await insertUsers(setup.db, [
      { product: 'flex', phone_number: '+13055550123', name: 'Existing' },
    ]);
    await setup.close();

    const gateway = await buildGateway({ port: 0, logLevel: 'silent', dataDir, fixturesDir });
    try {
      expect(gateway.seed?.seeded).toBe(false);
      expect(await countUsers(gateway.db)).toBe(1);
      const owner = data.staff[0]!;
      const url = await listening(gateway);
      await expect(
        signIn(url, gateway.config.clientId, owner.phoneNumber, owner.password),
      ).rejects.toThrow(/failed/);
    } finally {
      await gateway.close();
    }
  });
});

describe('seeding from two processes at once', () => {
  it('loads the fixtures once when two gateways start together on one PostgreSQL', async () => {
    const databaseSchema = uniqueSchema();
    const config = {
      port: 0,
      logLevel: 'silent' as const,
      databaseUrl: POSTGRES_URL,
      databaseSchema,
      fixturesDir,
    };
    const gateways = await Promise.all([buildGateway(config), buildGateway(config)]);
    try {
      expect(gateways.map((g) => g.seed?.seeded).sort()).toEqual([false, true]);
      expect(await countUsers(gateways[0]!.db)).toBe(
        data.flexUsers.length + data.sparkUsers.length + data.staff.length,
      );
      expect(await countInvitations(gateways[1]!.db)).toBe(data.invitations.length);
    } finally {
      for (const gateway of gateways) await gateway.close();
      const admin = await openDatabase({ kind: 'postgres', url: POSTGRES_URL });
      await admin.query(`DROP SCHEMA "${databaseSchema}" CASCADE`);
      await admin.close();
    }
  });
});

describe('readFixtures', () => {
  it('names a missing fixture file and how to make it', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'blockcatch-empty-'));
    cleanup.push(dir);
    await expect(readFixtures(dir)).rejects.toThrow(
      /[a-z-]+\.json is missing: run `npm run fixtures`, or start with --no-seed/,
    );
  });

  it('names the file and the field of a row that breaks its schema', async () => {
    const { dir } = await writeFixturesDir(20, 4);
    cleanup.push(dir);
    await writeFile(join(dir, 'staff.json'), JSON.stringify([{ name: 'No phone', password: 'x' }]));
    await expect(readFixtures(dir)).rejects.toThrow(
      /staff\.json does not match its schema at 0\.phoneNumber/,
    );
  });
});
