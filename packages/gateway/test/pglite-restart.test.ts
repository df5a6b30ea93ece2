// The embedded database's thread dying under a request (out of memory, a crash inside PGlite):
// that request is answered 503 `unavailable` rather than hanging, the thread is started again on
// the same data folder, and the next requests are served from the data it kept.
import { request } from 'undici';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { eventually } from '../../../tests/support/eventually.js';
import type { PgliteThread } from '../src/storage/pglite-thread.js';
import type { RunningGateway } from './helpers/gateway.js';
import { type GatewayOnThread, startGatewayOnThread } from './helpers/gateway-on-thread.js';
import { ADMIN } from './helpers/people.js';

let onThread: GatewayOnThread;
let running: RunningGateway;
let thread: PgliteThread;

beforeAll(async () => {
  // The gateway's own embedded database, held here so the test can end its thread.
  onThread = await startGatewayOnThread('pglite-restart');
  ({ running, thread } = onThread);
}, 180_000);

afterAll(async () => {
  await onThread?.close();
});

/** The admin's own user row (answered from the principal cache once warm), or another path. */
const me = async (path = '/api/flex/v1/user') => {
  const response = await request(`${running.url}${path}`, {
    headers: running.as(ADMIN),
    // Only a hang comes near this: the refusal is immediate.
    headersTimeout: 30_000,
  });
  return {
    status: response.statusCode,
    retryAfter: response.headers['retry-after'],
    body: (await response.body.json()) as { code?: string; Item?: { phoneNumber: string } },
  };
};

it('answers the request under way 503 unavailable when the thread dies, then serves the next ones', async () => {
  expect((await me()).status).toBe(200);

  // A transaction of the test's holds PGlite, so the request's query waits in the thread.
  const release = await onThread.hold();
  // The payment history is read from the database on every request: the user row may come from
  // the principal cache without a query.
  const underWay = me('/api/flex/v1/payments');
  await eventually(() => expect(running.gateway.db.queueDepth()).toBeGreaterThan(0));

  await thread.kill();
  const answer = await underWay;
  expect(answer.status).toBe(503);
  expect(answer.body).toMatchObject({ code: 'unavailable' });
  expect(Number(answer.retryAfter)).toBeGreaterThanOrEqual(1);
  // The transaction ended with its thread: finishing it now fails instead of reaching the new one.
  expect(await release()).toMatchObject({ name: 'DatabaseUnavailableError' });

  // Started again on the same folder: the account and its user row are still there.
  await eventually(async () => {
    expect((await me('/api/flex/v1/payments')).status).toBe(200);
    const next = await me();
    expect(next.status).toBe(200);
    expect(next.body.Item?.phoneNumber).toBe(ADMIN);
  });
  expect(thread.restarts()).toBe(1);
  const health = await request(`${running.url}/api/status/health`);
  expect(await health.body.json()).toEqual({ status: 'ok' });
  expect((await me()).status).toBe(200);
});
