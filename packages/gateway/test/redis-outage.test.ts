// A lost Redis under traffic: the request limit falls back to counting in the process (no request
// refused or failed because of Redis), says so once in the log and in /metrics, and goes back to
// Redis when it answers again.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { eventually } from '../../../tests/support/eventually.js';
import { buildGateway, type Gateway } from '../src/server.js';
import { type RedisServer, startRedisServer } from './helpers/redis-server.js';

const METRICS_TOKEN = 'metrics-token-for-the-outage-test';
const PER_MINUTE = 20;
const WARNING = 'request limit store unreachable';

let redis: RedisServer;
let gateway: Gateway;
let url: string;
const logLines: string[] = [];

beforeAll(async () => {
  redis = await startRedisServer();
  gateway = await buildGateway(
    {
      port: 0,
      logLevel: 'warn',
      seed: false,
      redisUrl: redis.url,
      rateLimit: { perMinute: PER_MINUTE },
      metricsToken: METRICS_TOKEN,
    },
    { logStream: { write: (line) => logLines.push(line) } },
  );
  await gateway.app.listen({ host: '127.0.0.1', port: 0 });
  const address = gateway.app.server.address();
  url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
});

afterAll(async () => {
  await gateway?.close();
  await redis?.stop();
});

// The key set is the one route of the request limit that reads nothing: status checks are exempt.
async function get(path = '/.well-known/jwks.json', headers: Record<string, string> = {}) {
  const response = await fetch(`${url}${path}`, { headers });
  const text = await response.text();
  return { status: response.status, text };
}

/** Requests counted in Redis, summed over the limit's keys. */
async function countedInRedis(): Promise<number> {
  const client = redis.client();
  const keys = await client.keys('blockcatch-rate-limit:*');
  const values = keys.length > 0 ? await client.mget(...keys) : [];
  return values.reduce((sum, value) => sum + Number(value ?? 0), 0);
}

/**
 * Four clients asking back to back while `during` runs, then until each has asked `after` more
 * times once it has ended: the statuses they got, in no particular order.
 */
async function underTraffic(during: () => Promise<void>, after = 10): Promise<number[]> {
  const statuses: number[] = [];
  let ended = false;
  const client = async () => {
    let left = after;
    // Bounded: a client asks at most 2,000 times whatever happens.
    for (let i = 0; i < 2000 && left > 0; i++) {
      statuses.push((await get()).status);
      if (ended) left--;
    }
  };
  const clients = Array.from({ length: 4 }, client);
  // The clients are under way before the fault.
  await eventually(() => expect(statuses.length).toBeGreaterThanOrEqual(4));
  await during();
  ended = true;
  await Promise.all(clients);
  return statuses;
}

async function metrics(): Promise<string> {
  const answer = await get('/metrics', { authorization: `Bearer ${METRICS_TOKEN}` });
  expect(answer.status).toBe(200);
  return answer.text;
}

it('serves /metrics only to the bearer of the metrics token', async () => {
  expect((await get('/metrics')).status).toBe(404);
  expect(
    (await get('/metrics', { authorization: 'Bearer wrong-token-of-same-size-xxxx' })).status,
  ).toBe(404);
  expect((await get('/metrics', { authorization: METRICS_TOKEN })).status).toBe(404);
  expect(await metrics()).toContain('blockcatch_rate_limit_shared{store="redis"} 1');
});

it('keeps answering while Redis is killed and restarted, counting in the process meanwhile', async () => {
  const first = await Promise.all(Array.from({ length: 5 }, () => get()));
  expect(first.map((answer) => answer.status)).toEqual([200, 200, 200, 200, 200]);
  await eventually(async () => expect(await countedInRedis()).toBe(5));

  const outage = await underTraffic(() => redis.kill());
  expect(outage.filter((status) => status !== 200 && status !== 429)).toEqual([]);
  // The limit still holds, counted here: exactly its requests in all, the first five included.
  expect(5 + outage.filter((status) => status === 200).length).toBe(PER_MINUTE);
  expect(outage).toContain(429);

  // The first share that fails says so; on a busy machine it may come after the traffic ends.
  await eventually(async () => {
    const seen = await metrics();
    expect(seen).toContain('blockcatch_rate_limit_shared{store="redis"} 0');
    const failures = Number(
      /blockcatch_rate_limit_share_failures_total\{store="redis"\} (\d+)/.exec(seen)?.[1],
    );
    expect(failures).toBeGreaterThan(0);
  });
  expect(logLines.filter((line) => line.includes(WARNING))).toHaveLength(1);

  const recovery = await underTraffic(async () => {
    await redis.restart();
    // Back on Redis: the counts kept while it was away reach the restarted server.
    await eventually(async () => {
      expect(await metrics()).toContain('blockcatch_rate_limit_shared{store="redis"} 1');
      expect(await countedInRedis()).toBeGreaterThan(0);
    });
  });
  expect(recovery.filter((status) => status !== 200 && status !== 429)).toEqual([]);
  // A minute has not passed: the outage was reported once.
  expect(logLines.filter((line) => line.includes(WARNING))).toHaveLength(1);
  expect(logLines.join('\n')).not.toContain(METRICS_TOKEN);
});
