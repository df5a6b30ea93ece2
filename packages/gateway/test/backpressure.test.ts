// Backpressure against a running gateway: with more requests waiting for the database than its bound, requests are
// refused at once with 503 `unavailable` and `Retry-After` (the health check still answers), the
// SDK waits and repeats them, and the gateway serves again as soon as the queue drains.
import { createGatewayClient } from '@blockcatch/sdk';
import { createUndiciTransport } from '@blockcatch/sdk/node';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../../../tests/support/eventually.js';
import { buildGateway, type Gateway } from '../src/server.js';
import { type Db, openDatabase } from '../src/storage/db.js';
import { holdTransaction } from './helpers/hold-transaction.js';
import { ADMIN, flexUsers, insertPeople, staff } from './helpers/people.js';
import { signIn } from './helpers/sign-in.js';

const QUEUE_LIMIT = 2;

let inner: Db;
let gateway: Gateway;
let url: string;
let token: string;
let refused = 0;

beforeAll(async () => {
  // An in-memory database of the test's own, closed by the test.
  inner = await openDatabase({ kind: 'pglite' });
  gateway = await buildGateway(
    {
      port: 0,
      logLevel: 'silent',
      seed: false,
      dbQueueLimit: QUEUE_LIMIT,
      goodStandingSweepMs: 0,
      catcher: { enabled: false },
    },
    { db: inner },
  );
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
  await inner?.close();
});

const me = () => request(`${url}/api/flex/v1/user`, { headers: { authorization: token } });

/** The driver dashboard as an admin reads it: its reads run several at once. */
const dashboard = () =>
  request(
    `${url}/api/flex/v1/admin/users/${encodeURIComponent(flexUsers[0]!.phoneNumber)}/dashboard`,
    { headers: { authorization: token } },
  );

/** Holds the database in one transaction (PGlite runs one at a time) until released. */
async function holdDatabase(): Promise<{ release(): Promise<void> }> {
  const release = await holdTransaction(gateway.db);
  return {
    async release() {
      const error = await release();
      if (error) throw error;
    },
  };
}

type Answer = Awaited<ReturnType<typeof dashboard>>;

/** Fills the queue past the bound with requests waiting behind a held database. */
async function saturate(): Promise<() => Promise<void>> {
  const hold = await holdDatabase();
  const waiting = Array.from({ length: QUEUE_LIMIT + 1 }, dashboard);
  await eventually(() => expect(gateway.db.queueDepth()).toBe(QUEUE_LIMIT + 1));
  return async () => {
    await hold.release();
    for (const answer of await Promise.all(waiting)) {
      expect(answer.statusCode).toBe(200);
      await answer.body.dump();
    }
  };
}

describe('a gateway whose database queue is full', () => {
  it('answers 503 unavailable with Retry-After at once, keeps the health check, and recovers', async () => {
    expect((await me()).statusCode).toBe(200);
    const drain = await saturate();
    try {
      // Many callers at once: none joins the queue, every one is refused while it is full.
      const answers = await Promise.all(Array.from({ length: 20 }, dashboard));
      for (const answer of answers) {
        expect(answer.statusCode).toBe(503);
        expect(Number(answer.headers['retry-after'])).toBeGreaterThanOrEqual(1);
        expect(await answer.body.json()).toMatchObject({ code: 'unavailable' });
      }
      expect(gateway.db.queueDepth()).toBe(QUEUE_LIMIT + 1);
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

describe('a request that runs several reads at once', () => {
  it('waits as one request, so as many requests as the bound are still served', async () => {
    const hold = await holdDatabase();
    let answers: Answer[] = [];
    try {
      const waiting = Array.from({ length: QUEUE_LIMIT }, dashboard);
      // Each runs several reads at once (more queries than the bound), but counts as one request.
      await eventually(() => expect(gateway.db.queueDepth()).toBe(QUEUE_LIMIT));
      const another = dashboard();
      await eventually(() => expect(gateway.db.queueDepth()).toBe(QUEUE_LIMIT + 1));
      await hold.release();
      answers = await Promise.all([...waiting, another]);
    } finally {
      await hold.release();
    }
    for (const answer of answers) {
      expect(answer.statusCode).toBe(200);
      await answer.body.dump();
    }
  });

  it('refuses what comes past the bound when many arrive at once, and queues none of it', async () => {
    const hold = await holdDatabase();
    const calls = Array.from({ length: 20 }, dashboard);
    let settled = 0;
    for (const call of calls) {
      call.then(
        () => settled++,
        () => settled++,
      );
    }
    try {
      // The bound admits QUEUE_LIMIT + 1 (refusing only past it); every other one is refused now.
      await eventually(() => expect(settled).toBe(calls.length - (QUEUE_LIMIT + 1)));
      expect(gateway.db.queueDepth()).toBe(QUEUE_LIMIT + 1);
    } finally {
      await hold.release();
    }
    const answers = await Promise.all(calls);
    const refusedNow = answers.filter((answer) => answer.statusCode === 503);
    expect(refusedNow.length).toBe(calls.length - (QUEUE_LIMIT + 1));
    for (const answer of answers) {
      if (answer.statusCode === 503) {
        expect(Number(answer.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      } else {
        expect(answer.statusCode).toBe(200);
      }
      await answer.body.dump();
    }
  });
});
