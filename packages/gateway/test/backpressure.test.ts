// Backpressure against a running gateway: with the database's queue past its bound, requests are
// refused at once with 503 `unavailable` and `Retry-After` (the health check still answers), the
// SDK waits and repeats them, and the gateway serves again as soon as the queue drains.
import { createGatewayClient } from '@blockcatch/sdk';
import { createUndiciTransport } from '@blockcatch/sdk/node';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../../../tests/support/eventually.js';
import { buildGateway, type Gateway } from '../src/server.js';
import { openDatabase } from '../src/storage/db.js';
import { POSTGRES_URL, uniqueSchema } from './helpers/database.js';
import { ADMIN, insertPeople, staff } from './helpers/people.js';
import { signIn } from './helpers/sign-in.js';

const QUEUE_LIMIT = 2;

let gateway: Gateway;
let url: string;
let token: string;
let refused = 0;

beforeAll(async () => {
  gateway = await buildGateway({
    port: 0,
    logLevel: 'silent',
    seed: false,
    dbQueueLimit: QUEUE_LIMIT,
    goodStandingSweepMs: 0,
    catcher: { enabled: false },
  });
  await insertPeople(gateway.db);
  const admin = staff.find((member) => member.phoneNumber === ADMIN)!;
  await gateway.identity.ensureAccount(admin);
  await gateway.app.listen({ host: '127.0.0.1', port: 0 });
  gateway.app.server.on('request', (_req, res) => {
    res.on('finish', () => {
      if (res.statusCode === 503) refused++;
    });
  });
  const address = gateway.app.server.address();
  url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  token = await signIn(url, gateway.config.clientId, admin.phoneNumber, admin.password);
});

afterAll(async () => {
  await gateway?.close();
});

/**
 * Fills the database's queue past the bound: one transaction holds the database (PGlite runs one
 * at a time) and more queries wait behind it. Resolves the returned function to drain it.
 */
async function saturate(): Promise<() => Promise<void>> {
  let release!: () => void;
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  let entered!: () => void;
  const inside = new Promise<void>((resolve) => {
    entered = resolve;
  });
  const holder = gateway.db.transaction(async () => {
    entered();
    await held;
  });
  await inside;
  const waiting = Array.from({ length: QUEUE_LIMIT + 1 }, () => gateway.db.query('SELECT 1'));
  expect(gateway.db.queueDepth()).toBeGreaterThan(QUEUE_LIMIT);
  return async () => {
    release();
    await Promise.all([holder, ...waiting]);
  };
}

const me = () => request(`${url}/api/flex/v1/user`, { headers: { authorization: token } });

describe('a gateway whose database queue is full', () => {
  it('answers 503 unavailable with Retry-After at once, keeps the health check, and recovers', async () => {
    expect((await me()).statusCode).toBe(200);
    const drain = await saturate();
    try {
      // Many callers at once: none joins the queue, every one is refused while it is full.
      const answers = await Promise.all(Array.from({ length: 20 }, me));
      for (const answer of answers) {
        expect(answer.statusCode).toBe(503);
        expect(Number(answer.headers['retry-after'])).toBeGreaterThanOrEqual(1);
        expect(await answer.body.json()).toMatchObject({ code: 'unavailable' });
      }
      expect(gateway.db.queueDepth()).toBeGreaterThan(QUEUE_LIMIT);
      const health = await request(`${url}/api/status/health`);
      expect(health.statusCode).toBe(200);
      await health.body.dump();
    } finally {
      await drain();
    }
    await eventually(async () => {
      const answer = await me();
      expect(answer.statusCode).toBe(200);
      await answer.body.dump();
    });
  });

  it('the SDK waits for Retry-After and repeats the read until the gateway serves it', async () => {
    const transport = createUndiciTransport();
    const client = createGatewayClient({
      baseUrl: url,
      transport,
      auth: { getIdToken: async () => token },
      retry: { maxRetries: 5 },
    });
    const drain = await saturate();
    const before = refused;
    const read = client.me();
    try {
      await eventually(() => expect(refused).toBeGreaterThan(before));
    } finally {
      await drain();
    }
    await expect(read).resolves.toMatchObject({ phoneNumber: ADMIN });
    await transport.close();
  });
});

describe('the PostgreSQL pool', () => {
  it('counts callers waiting for a connection as its queue', async () => {
    const schema = uniqueSchema();
    const db = await openDatabase({
      kind: 'postgres',
      url: POSTGRES_URL,
      schema,
      maxConnections: 1,
    });
    try {
      let release!: () => void;
      const held = new Promise<void>((resolve) => {
        release = resolve;
      });
      const holder = db.transaction(() => held);
      const waiting = [db.query('SELECT 1'), db.query('SELECT 2')];
      await eventually(() => expect(db.queueDepth()).toBe(2));
      release();
      await Promise.all([holder, ...waiting]);
      expect(db.queueDepth()).toBe(0);
    } finally {
      await db.query(`DROP SCHEMA "${schema}" CASCADE`);
      await db.close();
    }
  });
});
