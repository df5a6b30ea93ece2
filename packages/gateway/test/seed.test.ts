// Seeding on first start: the fixtures land once, staff can sign in with the printed passwords, and
// a database that already holds users is left alone.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Dataset, REFERENCE_DATE } from '../../../fixtures/generate-data.js';
import { eventually } from '../../../tests/support/eventually.js';
import { sweepLapsedStanding } from '../src/payments/settle.js';
import { FIXTURES_REFERENCE_DATE, readFixtures, seedFixtures } from '../src/seed.js';
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

// These start and seed whole gateways: slow on a loaded machine.
const SEEDING = { timeout: 120_000 };

describe('seeding', SEEDING, () => {
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

describe('the seeded sandbox on any day', SEEDING, () => {
  const DAY = 86_400_000;

  it('holds the same numbers of active, expiring and expired users whatever day it is seeded', async () => {
    expect(FIXTURES_REFERENCE_DATE).toBe(REFERENCE_DATE);
    const users = [...data.flexUsers, ...data.sparkUsers];
    const expected = {
      active: users.filter((u) => (u.expirationDateTimestamp ?? 0) > REFERENCE_DATE).length,
      expiring: users.filter(
        (u) =>
          u.expirationDateTimestamp !== null &&
          u.expirationDateTimestamp > REFERENCE_DATE &&
          u.expirationDateTimestamp <= REFERENCE_DATE + DAY,
      ).length,
    };
    expect(expected.active).toBeGreaterThan(20);
    // A year and a half after the fixtures' day: dated fixtures would have expired everyone.
    for (const seededAt of [Date.now(), REFERENCE_DATE + 540 * DAY + 7_654_321]) {
      const gateway = await buildGateway({
        port: 0,
        logLevel: 'silent',
        seed: false,
        catcher: { enabled: false },
        sandboxPlatform: { offerIntervalMs: 0 },
      });
      try {
        await seedFixtures({
          db: gateway.db,
          identity: gateway.identity,
          fixturesDir,
          now: seededAt,
          setUpDrivers: gateway.driver.setUpSeededDrivers,
        });
        // The good-standing sweep running at the seeding moment takes no one's standing.
        expect(await sweepLapsedStanding(gateway.db, seededAt)).toBe(0);
        const [row] = await gateway.db.query<{ active: number; expiring: number; future: number }>(
          `SELECT count(*) FILTER (WHERE good_standing)::int AS active,
             count(*) FILTER (WHERE expiration_ts > $1 AND expiration_ts <= $2)::int AS expiring,
             count(*) FILTER (WHERE create_date_ts > $1)::int AS future
           FROM users WHERE phone_number <> ALL($3)`,
          [seededAt, seededAt + DAY, data.staff.map((s) => s.phoneNumber)],
        );
        expect(row).toEqual({ active: expected.active, expiring: expected.expiring, future: 0 });
        const [invited] = await gateway.db.query<{ latest: number }>(
          'SELECT max(date_invited_ts)::bigint AS latest FROM invitations',
        );
        expect(Number(invited?.latest)).toBeLessThanOrEqual(seededAt);
        expect(Number(invited?.latest)).toBeGreaterThan(seededAt - 30 * DAY);
      } finally {
        await gateway.close();
      }
    }
  });

  it('gives every driver marked connected a platform link and every one marked set up filters', async () => {
    const gateway = await buildGateway({
      port: 0,
      logLevel: 'silent',
      fixturesDir,
      catcher: { enabled: false },
      sandboxPlatform: { offerIntervalMs: 0 },
    });
    try {
      const [flags] = await gateway.db.query<Record<string, number>>(
        `SELECT
           count(*) FILTER (WHERE u.proxy_installed)::int AS connected,
           count(*) FILTER (WHERE u.proxy_installed AND l.state = 'connected')::int AS linked,
           count(*) FILTER (WHERE u.setup_complete)::int AS set_up,
           count(*) FILTER (WHERE u.setup_complete AND s.user_id IS NOT NULL)::int AS with_filters,
           count(*) FILTER (WHERE NOT u.proxy_installed AND l.user_id IS NOT NULL)::int AS stray_links
         FROM users u
         LEFT JOIN driver_platform_links l ON l.user_id = u.id
         LEFT JOIN driver_settings s ON s.user_id = u.id
         WHERE u.product = 'flex'`,
      );
      expect(flags!.connected).toBeGreaterThan(50);
      expect(flags!.linked).toBe(flags!.connected);
      expect(flags!.with_filters).toBe(flags!.set_up);
      expect(flags!.stray_links).toBe(0);
    } finally {
      await gateway.close();
    }
  });

  it('has the demo driver searching soon after the start and winning the blocks it wants', async () => {
    const gateway = await buildGateway({
      port: 0,
      logLevel: 'silent',
      fixturesDir,
      sandboxPlatform: { offerIntervalMs: 0, failureRate: 0 },
    });
    try {
      const url = await listening(gateway);
      const demo = data.staff.find((member) => !member.isAdmin)!;
      const token = await signIn(url, gateway.config.clientId, demo.phoneNumber, demo.password);
      const dashboard = async () => {
        const response = await request(`${url}/api/flex/v1/dashboard`, {
          headers: { authorization: token },
        });
        return ((await response.body.json()) as { Item: Record<string, unknown> }).Item;
      };
      await eventually(async () => expect(await dashboard()).toMatchObject({ searching: true }), {
        timeout: 30_000,
      });
      // Tomorrow at noon in Austin, $20.50/h: the demo driver's filters take it, the sample
      // drivers' ($22/h and up) do not, so no one else races for it.
      const noon = Math.ceil(Date.now() / DAY) * DAY + 18 * 3_600_000;
      const offer = await gateway.driver.platform.publishOffer({
        serviceAreaId: 'DAU1',
        startTime: noon,
        endTime: noon + 2 * 3_600_000,
        pay: 41,
        takenAfterMs: 60_000,
      });
      await eventually(async () => {
        const response = await request(`${url}/api/flex/v1/offers?kind=won`, {
          headers: { authorization: token },
        });
        const { Items } = (await response.body.json()) as { Items: { offerId: string }[] };
        expect(Items.map((i) => i.offerId)).toContain(offer.offerId);
      });
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
