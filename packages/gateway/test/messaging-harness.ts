// Test scaffolding for messaging: a database (PGlite or a fresh schema on the real PostgreSQL) and a
// Fastify app serving the messaging routes on 127.0.0.1. Identity is stood in for by a principal
// read from the `x-test-user` header (a real user row's id); an end-to-end test through real id
// tokens belongs with the identity module.
import Fastify, {
  type FastifyInstance,
  type FastifyRequest,
  type FastifyServerOptions,
} from 'fastify';
import pg from 'pg';
import { eventually } from '../../../tests/support/eventually.js';
import type { Principal } from '../src/api/authenticate.js';
import { type GatewayConfigInput, parseConfig } from '../src/config.js';
import { installAudit } from '../src/http/audit.js';
import { unauthenticated } from '../src/http/errors.js';
import { installPipeline } from '../src/http/pipeline.js';
import { createMessaging, type Messaging } from '../src/messaging/index.js';
import { createOutboxProvider } from '../src/messaging/providers/outbox.js';
import { createSendWorker, type SendWorker } from '../src/messaging/worker.js';
import { type Db, openDatabase } from '../src/storage/db.js';
import { migrate } from '../src/storage/migrate.js';
import type { UserRecord } from '../src/storage/user-record.js';
import { insertUsers, type NewUser } from '../src/storage/users.js';
import { POSTGRES_URL, uniqueSchema } from './helpers/database.js';

export { POSTGRES_URL } from './helpers/database.js';

export type DbKind = 'pglite' | 'postgres';

export interface TestDb {
  db: Db;
  /** The Postgres schema, for a second process or pool on the same data. */
  schema: string | null;
  close(): Promise<void>;
}

export async function openTestDb(kind: DbKind): Promise<TestDb> {
  if (kind === 'pglite') {
    const db = await openDatabase({ kind: 'pglite' });
    await migrate(db);
    return { db, schema: null, close: () => db.close() };
  }
  const schema = uniqueSchema();
  const db = await openDatabase({ kind: 'postgres', url: POSTGRES_URL, schema });
  await migrate(db);
  return {
    db,
    schema,
    close: async () => {
      await db.close();
      await dropSchema(schema);
    },
  };
}

export async function dropSchema(schema: string): Promise<void> {
  const client = new pg.Client({ connectionString: POSTGRES_URL });
  await client.connect();
  try {
    await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  } finally {
    await client.end();
  }
}

/**
 * A fresh database with the owner in it, and the routes with no worker of their own: for a test
 * that runs the worker it measures (`startOutboxWorker`). `close` closes both.
 */
export async function startRoutesOnly(
  kind: DbKind,
): Promise<{ testDb: TestDb; server: MessagingServer; close(): Promise<void> }> {
  const testDb = await openTestDb(kind);
  await withOwner(testDb);
  const server = await startMessagingServer(testDb.db, {
    config: { sendRate: 0 },
    startWorker: false,
  });
  return {
    testDb,
    server,
    close: async () => {
      await server.close();
      await testDb.close();
    },
  };
}

/**
 * A send worker of its own, started: through the outbox, unpaced, on `db` (a counting wrapper, say),
 * beside a server started with `startWorker: false`.
 */
export function startOutboxWorker(db: Db, server: MessagingServer, idleMs?: number): SendWorker {
  const worker = createSendWorker({
    db,
    provider: createOutboxProvider(),
    log: server.app.log,
    rateFor: () => 0,
    productTimeZone: 'UTC',
    ...(idleMs === undefined ? {} : { idleMs }),
  });
  worker.start();
  return worker;
}

/** Reads the principal from `x-test-user`: the id of a row in users. */
export function headerAuthenticate(db: Db) {
  return async (request: FastifyRequest): Promise<Principal> => {
    const id = request.headers['x-test-user'];
    if (typeof id !== 'string') throw unauthenticated();
    const [user] = await db.query<UserRecord>('SELECT * FROM users WHERE id = $1', [id]);
    if (!user) throw unauthenticated();
    const now = Math.floor(Date.now() / 1000);
    return {
      user,
      claims: {
        sub: user.id,
        'cognito:username': user.phone_number,
        phone_number: user.phone_number,
        phone_number_verified: true,
        token_use: 'id',
        iat: now,
        exp: now + 3600,
      },
    };
  };
}

export interface MessagingServer {
  app: FastifyInstance;
  url: string;
  messaging: Messaging;
  close(): Promise<void>;
}

export async function startMessagingServer(
  db: Db,
  options: {
    config?: GatewayConfigInput;
    retryBaseMs?: number;
    startWorker?: boolean;
    /** The clock quiet hours are judged by. */
    now?: () => number;
    /** How often a paused sender tries again. */
    pauseProbeMs?: number;
    /** Where the app logs (default nowhere). */
    logger?: FastifyServerOptions['logger'];
  } = {},
): Promise<MessagingServer> {
  // Quiet hours are off unless a test turns them on: a test must not depend on the hour it runs.
  // So are marketing consent and the weekly cap: a test that sends to made-up numbers, or to one
  // number many times, tests something else; the consent and cap tests turn them on.
  const config = parseConfig({
    logLevel: 'silent',
    seed: false,
    port: 0,
    quietHours: false,
    marketingConsent: false,
    marketingWeeklyCap: 0,
    // Approvals off: these suites test what a send does once it goes (send-approvals.test.ts
    // tests the wait for a second admin).
    approvalForWhatsapp: false,
    approvalThreshold: 10_000_000,
    ...options.config,
  });
  // The gateway's BODY_LIMIT: a 100,000-number send is about 3 MB.
  const app = Fastify({ logger: options.logger ?? false, bodyLimit: 5 * 1024 * 1024 });
  installPipeline(app, headerAuthenticate(db));
  // Audited routes record as in the gateway, so a test can read the trail.
  installAudit(app, { db, now: Date.now });
  const messaging = createMessaging({
    db,
    config,
    log: app.log,
    ...(options.retryBaseMs === undefined ? {} : { retryBaseMs: options.retryBaseMs }),
    ...(options.now === undefined ? {} : { now: options.now }),
    ...(options.pauseProbeMs === undefined ? {} : { pauseProbeMs: options.pauseProbeMs }),
  });
  messaging.registerRoutes(app);
  await app.listen({ host: '127.0.0.1', port: 0 });
  if (options.startWorker !== false) messaging.start();
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  return {
    app,
    url: `http://127.0.0.1:${address.port}`,
    messaging,
    async close() {
      await messaging.stop();
      await app.close();
    },
  };
}

/** Waits, through the shared `eventually`, until none of the job's recipients is queued or sending. */
export function waitForJob(db: Db, jobId: string, timeout = 60_000): Promise<void> {
  return eventually(
    async () => {
      const [row] = await db.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM send_recipients
         WHERE job_id = $1 AND status IN ('queued', 'sending')`,
        [jobId],
      );
      if (row?.n !== 0) throw new Error(`job ${jobId} still has ${row?.n} recipients to send`);
    },
    { timeout },
  );
}

/** `count` distinct valid US numbers: +1555 followed by seven digits from `start`. */
export function phoneNumbers(count: number, start = 0): string[] {
  return Array.from({ length: count }, (_, i) => `+1555${String(start + i).padStart(7, '0')}`);
}

/** The owner the messaging suites send as (`x-test-user`). */
export const OWNER = 'owner-1';

/** Adds the owner's user row, with any of its permissions changed (`can_send_multi_segment`, …). */
export async function withOwner(testDb: TestDb, changes: Partial<NewUser> = {}) {
  await insertUsers(testDb.db, [
    {
      id: OWNER,
      product: 'flex',
      phone_number: '+15559990001',
      name: 'Owner',
      is_admin: true,
      role: 'owner',
      ...changes,
    },
  ]);
}

/**
 * Sends `message` (or a short default) to `numbers` as the owner through the real route, under a
 * fresh idempotency key, and expects it accepted.
 */
export async function sendAsOwner(
  url: string,
  numbers: string[],
  options: { message?: string; sendAt?: string } = {},
) {
  const response = await fetch(`${url}/api/flex/v1/admin/sendsms`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-test-user': OWNER,
      'idempotency-key': `k-${Math.random()}`,
    },
    body: JSON.stringify({
      numbers: numbers.map((number) => ({ number })),
      message: options.message ?? 'Blocks are open',
      ...(options.sendAt ? { sendAt: options.sendAt } : {}),
    }),
  });
  if (response.status !== 202) {
    throw new Error(`sendsms answered ${response.status}, not 202: ${await response.text()}`);
  }
  return (await response.json()) as {
    jobId: string;
    queued: number;
    sendAt?: number;
    waitingForQuietHours: number;
  };
}
