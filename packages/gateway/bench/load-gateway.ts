// The gateway process of `npm run bench:load`: a large generated user table, the sandbox admin and
// `drivers` driver accounts, on PGlite (in its worker thread with a data folder of its own, as the
// embedded default runs, or in memory on the HTTP thread with LOAD_PGLITE_IN_THREAD=1) or on a
// PostgreSQL schema of its own. It measures its own
// event-loop delay (perf_hooks) and memory, and answers the parent over IPC:
// `stats` → { lag, rss }, `reset` clears the lag histogram, `accepted` → the health checks answered
// on new connections since the last `accepted`, `stop` closes (and drops the schema).
import { mkdtempSync, rmSync } from 'node:fs';
import type { Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { generateFlexUsers, generateStaff } from '../../../fixtures/generate-data.js';
import { staffUserRow } from '../src/seed.js';
import { openDatabase, quoteIdent } from '../src/storage/db.js';
import { insertUsers } from '../src/storage/users.js';
import { startLargeGateway } from './large-gateway.js';
import { LOAD_SEND_MESSAGE } from './load-send.js';

export interface LoadGatewayReady {
  type: 'ready';
  url: string;
  clientId: string;
  admin: { phoneNumber: string; password: string };
  /** The owner sends: only an owner may message users who are not pending invitees. */
  owner: { phoneNumber: string; password: string };
  drivers: { phoneNumber: string; password: string }[];
  /** Phone numbers of the table's users, for the send. */
  recipients: string[];
}

/** Health checks answered on new connections, each one's in the same place of both lists. */
export interface LoadGatewayAccepted {
  type: 'accepted';
  /** Its time inside this process, from accepting the connection to the answer, in ms. */
  ms: number[];
  /** When its connection was accepted, in ms since the epoch. */
  acceptedAt: number[];
}

export interface LoadGatewayStats {
  type: 'stats';
  /** Event-loop delay since the last reset, in ms. */
  lag: { mean: number; p50: number; p99: number; max: number };
  rssMb: number;
  /** Messages of the bench's send the outbox provider delivered so far. */
  delivered: number;
  /** Distinct numbers among them: fewer than `delivered` would mean someone got it twice. */
  deliveredTo: number;
}

const USERS = Number(process.env.LOAD_USERS);
const DRIVERS = Number(process.env.LOAD_DRIVERS);
const RECIPIENTS = Number(process.env.LOAD_RECIPIENTS);
const DATABASE_URL = process.env.LOAD_DATABASE_URL;
const SCHEMA = process.env.LOAD_SCHEMA;
const DRIVER_PASSWORD = 'Load-bench-driver-1';

// PGlite on the HTTP thread, as the gateway ran it before it had a worker: the "before" figures.
const IN_THREAD = process.env.LOAD_PGLITE_IN_THREAD === '1';

// The embedded default keeps its data in a folder (main.js), not in PGlite's own memory.
const DATA_DIR =
  DATABASE_URL || IN_THREAD ? undefined : mkdtempSync(join(tmpdir(), 'blockcatch-load-'));

const { gateway, url, admin } = await startLargeGateway(
  USERS,
  {
    ...(DATABASE_URL ? { databaseUrl: DATABASE_URL, databaseSchema: SCHEMA } : {}),
    ...(DATA_DIR ? { dataDir: DATA_DIR } : {}),
    // The send is part of the load: delivered as fast as the database allows, at once, not held
    // for a second admin's approval as a send this large would be.
    sendRate: 0,
    approvalThreshold: 10_000_000,
    // The generated users hold no consent records, and the bench must not depend on the hour it
    // runs: without these the send would skip or hold every recipient and load nothing.
    marketingConsent: false,
    marketingWeeklyCap: 0,
    quietHours: false,
    // Every simulated client comes from 127.0.0.1 and names its own address in X-Forwarded-For,
    // as behind a balancer; each reads back to back, far above what the default limit allows one
    // address, so the limit is on at its highest setting.
    trustProxyHops: 1,
    rateLimit: { perMinute: 1_000_000 },
    logLevel: 'silent',
  },
  IN_THREAD ? { db: await openDatabase({ kind: 'pglite', inThread: true }) } : {},
);
const users = generateFlexUsers(USERS, 2026);
const drivers = users
  .slice(0, DRIVERS)
  .map((user) => ({ phoneNumber: user.phoneNumber, password: DRIVER_PASSWORD }));
const owner = generateStaff()[0]!;
await insertUsers(gateway.db, [staffUserRow(owner, Date.now())]);
await gateway.identity.ensureAccount({
  phoneNumber: owner.phoneNumber,
  password: owner.password,
  name: owner.name,
});
for (const driver of drivers) {
  await gateway.identity.ensureAccount({ ...driver, name: 'Load driver' });
}

// A new connection's first health check, timed from the moment this process accepted the connection
// to its answer's last byte: the share of a new client's wait spent here. The accept's own time
// (since the epoch) tells how long the client waited before it; the rest passed in the client.
const acceptTimes = new WeakMap<Socket, number>();
let accepted: LoadGatewayAccepted = { type: 'accepted', ms: [], acceptedAt: [] };
gateway.app.server.on('connection', (socket: Socket) => acceptTimes.set(socket, performance.now()));
gateway.app.server.on('request', (request, response) => {
  const at = acceptTimes.get(request.socket);
  acceptTimes.delete(request.socket);
  if (at === undefined || request.url !== '/api/status/health') return;
  response.once('finish', () => {
    if (accepted.ms.length >= 100_000) return;
    accepted.ms.push(performance.now() - at);
    accepted.acceptedAt.push(performance.timeOrigin + at);
  });
});

const lag = monitorEventLoopDelay({ resolution: 10 });
lag.enable();
const ms = (ns: number) => Math.round(ns / 1e5) / 10;

process.on('message', async (message: { type: string }) => {
  if (message.type === 'reset') {
    lag.reset();
    process.send?.({ type: 'reset' });
  } else if (message.type === 'accepted') {
    process.send?.(accepted);
    accepted = { type: 'accepted', ms: [], acceptedAt: [] };
  } else if (message.type === 'stats') {
    const [row] = await gateway.db
      .query<{ n: number; d: number }>(
        `SELECT count(*)::int AS n, count(DISTINCT to_number)::int AS d FROM outbox_messages
         WHERE starts_with(body, $1)`,
        [LOAD_SEND_MESSAGE],
      )
      .catch(() => [{ n: -1, d: -1 }]);
    const stats: LoadGatewayStats = {
      type: 'stats',
      lag: {
        mean: ms(lag.mean),
        p50: ms(lag.percentile(50)),
        p99: ms(lag.percentile(99)),
        max: ms(lag.max),
      },
      rssMb: Math.round(process.memoryUsage().rss / 1_048_576),
      delivered: row?.n ?? -1,
      deliveredTo: row?.d ?? -1,
    };
    process.send?.(stats);
  } else if (message.type === 'stop') {
    lag.disable();
    await gateway.close();
    if (DATABASE_URL && SCHEMA) {
      const db = await openDatabase({ kind: 'postgres', url: DATABASE_URL });
      await db.query(`DROP SCHEMA IF EXISTS ${quoteIdent(SCHEMA)} CASCADE`);
      await db.close();
    }
    if (DATA_DIR) rmSync(DATA_DIR, { recursive: true, force: true });
    process.send?.({ type: 'stopped' });
    process.exit(0);
  }
});

const ready: LoadGatewayReady = {
  type: 'ready',
  url,
  clientId: gateway.config.clientId,
  admin,
  owner: { phoneNumber: owner.phoneNumber, password: owner.password },
  drivers,
  recipients: users.slice(0, RECIPIENTS).map((user) => user.phoneNumber),
};
process.send?.(ready);
