// A gateway on loopback holding a large generated user table and the sandbox admin, for the
// benchmarks that read that table (the API's own, and the CLI's export).
import { generateStaff, iterateFlexUsers } from '../../../fixtures/generate-data.js';
import type { GatewayConfigInput } from '../src/config.js';
import { sweepLapsedStanding } from '../src/payments/settle.js';
import { flexUserRow, staffUserRow } from '../src/seed.js';
import { buildGateway, type Gateway } from '../src/server.js';
import type { Db } from '../src/storage/db.js';
import { insertUsers } from '../src/storage/users.js';

export interface LargeGateway {
  gateway: Gateway;
  url: string;
  /** The sandbox admin, with a confirmed account: sign in with its phone number and password. */
  admin: { phoneNumber: string; password: string; name: string };
  /** How long inserting the users took, in milliseconds. */
  insertMs: number;
}

export async function startLargeGateway(
  users: number,
  config: Partial<GatewayConfigInput> = {},
  /** A database opened by the caller (the load bench's in-thread PGlite, for comparison). */
  options: { db?: Db } = {},
): Promise<LargeGateway> {
  // Quiet hours off: a test must not depend on the hour it runs.
  const gateway = await buildGateway(
    {
      port: 0,
      logLevel: 'silent',
      seed: false,
      quietHours: false,
      ...config,
    },
    options,
  );
  const started = performance.now();
  // The same rows as generateFlexUsers(users, 2026), drawn as they are inserted: a million of them
  // never sit in memory, and each statement inserts 10,000.
  await insertUsers(gateway.db, flexUserRows(users, 2026));
  const insertMs = performance.now() - started;
  // The generated users include many in good standing whose paid time already ran out. The billing
  // sweep (every minute) would otherwise flip them all during the measured reads, in batches on the
  // embedded database's one connection: a one-time import's catch-up, not what a table holds from
  // day to day, where each sweep finds the few that lapsed since the last.
  await sweepLapsedStanding(gateway.db);
  const admin = generateStaff()[1]!;
  await insertUsers(gateway.db, [staffUserRow(admin, Date.now())]);
  await gateway.identity.ensureAccount({
    phoneNumber: admin.phoneNumber,
    password: admin.password,
    name: admin.name,
  });
  const url = `http://127.0.0.1:${await gateway.listen('127.0.0.1', 0)}`;
  return { gateway, url, admin, insertMs };
}

function* flexUserRows(count: number, seed: number) {
  for (const user of iterateFlexUsers(count, seed)) yield flexUserRow(user);
}
