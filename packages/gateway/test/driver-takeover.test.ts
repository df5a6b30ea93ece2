// Two gateway processes on one PostgreSQL schema split the drivers who are on; when one is killed
// mid-catch, the other takes its drivers over within the lease time and keeps winning blocks.
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createCredentialCipher } from '../src/platform/credential-cipher.js';
import { createSandboxPlatform, type SandboxPlatform } from '../src/platform/sandbox.js';
import { saveDriverFilters } from '../src/storage/driver-settings.js';
import { insertUsers } from '../src/storage/users.js';
import { matchingOffer, openFilters, waitFor } from './driver-harness.js';
import { openTestDatabase, type TestDatabase } from './helpers/database.js';

const CHILD = fileURLToPath(new URL('./driver-gateway-child.ts', import.meta.url));
const KEY = randomBytes(32).toString('base64');
const DRIVERS = 10;
let database: TestDatabase;
let platform: SandboxPlatform;
const children: ChildProcess[] = [];

beforeAll(async () => {
  database = await openTestDatabase('postgres');
  const { db } = database;
  const codes: string[] = [];
  platform = createSandboxPlatform({
    db,
    sendCode: async (_to, text) => void codes.push(text.slice(-6)),
    options: {
      offerIntervalMs: 0,
      failureRate: 0,
      maxPollsPerSecond: 0,
      takenAfterMs: { min: 10_000, max: 10_000 },
    },
  });
  const cipher = createCredentialCipher(Buffer.from(KEY, 'base64'));
  for (let i = 0; i < DRIVERS; i++) {
    const phone = `+1512555${String(2000 + i)}`;
    const id = `takeover-${i}`;
    await insertUsers(db, [
      {
        id,
        product: 'flex',
        phone_number: phone,
        name: `Driver ${i}`,
        good_standing: true,
        status: 'start',
      },
    ]);
    const { challengeId } = await platform.signIn({
      email: `d${i}@example.com`,
      password: 'pw',
      phoneNumber: phone,
    });
    const session = await platform.verifyOtp({ challengeId, code: codes.at(-1)! });
    await db.query(
      `INSERT INTO driver_platform_links (user_id, state, credentials_enc, session_enc, updated_ts)
       VALUES ($1, 'connected', $2, $3, $4)`,
      [
        id,
        cipher.seal({ email: `d${i}@example.com`, password: 'pw' }),
        cipher.seal(session),
        Date.now(),
      ],
    );
    await db.query('UPDATE users SET proxy_installed = true WHERE id = $1', [id]);
    await saveDriverFilters(db, id, openFilters({ warehouses: ['DFW6'] }));
  }
});

afterAll(async () => {
  for (const child of children) {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGKILL');
      await once(child, 'exit');
    }
  }
  await platform?.stop();
  await database?.drop();
});

async function startChild(schema: string): Promise<{ child: ChildProcess; holder: string }> {
  const child = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', CHILD], {
    env: { ...process.env, DRIVER_TEST_SCHEMA: schema, DRIVER_TEST_KEY: KEY },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.push(child);
  let output = '';
  const holder = await new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /READY (\S+)/.exec(output);
      if (match) resolve(match[1]!);
    });
    child.once('exit', (code) =>
      reject(new Error(`gateway child exited early (${code}): ${output}`)),
    );
  });
  return { child, holder };
}

const liveLeases = () =>
  database.db.query<{ user_id: string; holder: string }>(
    'SELECT user_id, holder FROM driver_leases WHERE expires_ts >= $1',
    [Date.now()],
  );

it('moves the drivers of a killed gateway process to the survivor within the lease time', async () => {
  const schema = (await database.db.query<{ s: string }>('SELECT current_schema() AS s'))[0]!.s;
  const first = await startChild(schema);
  const second = await startChild(schema);

  const split = await waitFor(liveLeases, (rows) => {
    const holders = new Set(rows.map((r) => r.holder));
    return rows.length === DRIVERS && holders.has(first.holder) && holders.has(second.holder);
  });
  const firstDrivers = split.filter((r) => r.holder === first.holder).map((r) => r.user_id);
  expect(firstDrivers.length).toBeGreaterThan(0);
  expect(firstDrivers.length).toBeLessThan(DRIVERS);

  // One of the first process's drivers is the only one who wants DAU1 blocks.
  const target = firstDrivers[0]!;
  await saveDriverFilters(database.db, target, openFilters({ warehouses: ['DAU1'] }));

  first.child.kill('SIGKILL');
  await once(first.child, 'exit');

  await waitFor(
    liveLeases,
    (rows) => rows.length === DRIVERS && rows.every((r) => r.holder === second.holder),
    10_000,
  );

  const offer = await platform.publishOffer(matchingOffer());
  const [won] = await waitFor(
    () =>
      database.db.query<{ user_id: string; kind: string }>(
        'SELECT user_id, kind FROM driver_offers WHERE offer_id = $1 AND kind = $2',
        [offer.offerId, 'won'],
      ),
    (rows) => rows.length === 1,
  );
  expect(won!.user_id).toBe(target);

  second.child.kill('SIGTERM');
  await once(second.child, 'exit');
  // A clean stop gives the leases back at once.
  expect(await liveLeases()).toEqual([]);
}, 60_000);
