// What an operator scrapes from GET /metrics moves with what the gateway does: a request counts
// under its route and status (never under a path a caller made up), a send shows in the queue, in
// the time to the provider and in the delivery outcomes, and the process reports its event loop,
// memory and database connections.
import { randomBytes } from 'node:crypto';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../../../tests/support/eventually.js';
import { type RunningGateway, startGateway } from './helpers/gateway.js';
import { flexUsers, OWNER } from './helpers/people.js';

const METRICS_TOKEN = 'metrics-token-for-the-metrics-test';

let running: RunningGateway;

beforeAll(async () => {
  running = await startGateway({ metricsToken: METRICS_TOKEN, sendRate: 0 });
});

afterAll(async () => {
  await running?.gateway.close();
});

interface Sample {
  labels: Record<string, string>;
  value: number;
}

/** The scrape as samples by metric name. */
async function scrape(): Promise<Map<string, Sample[]>> {
  const answer = await request(`${running.url}/metrics`, {
    headers: { authorization: `Bearer ${METRICS_TOKEN}` },
  });
  expect(answer.statusCode).toBe(200);
  const samples = new Map<string, Sample[]>();
  for (const line of (await answer.body.text()).split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const space = line.lastIndexOf(' ');
    const series = line.slice(0, space);
    const brace = series.indexOf('{');
    const name = brace < 0 ? series : series.slice(0, brace);
    const labels: Record<string, string> = {};
    if (brace >= 0) {
      for (const pair of series.slice(brace + 1, -1).split('",')) {
        const equals = pair.indexOf('=');
        labels[pair.slice(0, equals)] = pair.slice(equals + 2).replace(/"$/, '');
      }
    }
    const list = samples.get(name) ?? [];
    list.push({ labels, value: Number(line.slice(space + 1)) });
    samples.set(name, list);
  }
  return samples;
}

/** The sum of a metric's samples whose labels include `labels`. */
function value(
  samples: Map<string, Sample[]>,
  name: string,
  labels: Record<string, string> = {},
): number {
  return (samples.get(name) ?? [])
    .filter((sample) => Object.entries(labels).every(([k, v]) => sample.labels[k] === v))
    .reduce((sum, sample) => sum + sample.value, 0);
}

describe('GET /metrics', () => {
  it('counts each answer under its route and status, and a made-up path only as unmatched', async () => {
    const before = await scrape();
    const user = { method: 'GET', route: '/api/flex/v1/user' };
    for (let i = 0; i < 3; i++) {
      const answer = await request(`${running.url}/api/flex/v1/user`, {
        headers: running.as(OWNER),
      });
      expect(answer.statusCode).toBe(200);
      await answer.body.dump();
    }
    const refused = await request(`${running.url}/api/flex/v1/user`);
    expect(refused.statusCode).toBe(401);
    await refused.body.dump();
    const madeUp = `/no-such-page-${randomBytes(6).toString('hex')}`;
    for (let i = 0; i < 2; i++) {
      const answer = await request(`${running.url}${madeUp}-${i}`);
      await answer.body.dump();
    }

    const after = await scrape();
    const delta = (labels: Record<string, string>) =>
      value(after, 'blockcatch_http_requests_total', labels) -
      value(before, 'blockcatch_http_requests_total', labels);
    expect(delta({ ...user, status: '200' })).toBe(3);
    expect(delta({ ...user, status: '401' })).toBe(1);
    expect(delta({ route: 'unmatched' })).toBe(2);
    const routes = (after.get('blockcatch_http_requests_total') ?? []).map((s) => s.labels.route);
    expect(routes.some((route) => route?.includes('no-such-page'))).toBe(false);
    expect(
      value(after, 'blockcatch_http_request_duration_seconds_count', { route: user.route }) -
        value(before, 'blockcatch_http_request_duration_seconds_count', { route: user.route }),
    ).toBe(4);
  });

  it('shows a send in the queue by class, in the time to the provider and in its outcomes', async () => {
    const before = await scrape();
    for (const messageClass of ['code', 'alert', 'invitation', 'marketing']) {
      expect(before.get('blockcatch_messages_waiting')?.map((s) => s.labels.class)).toContain(
        messageClass,
      );
    }
    const numbers = flexUsers.slice(0, 3).map((user) => user.phoneNumber);
    const sent = await request(`${running.url}/api/flex/v1/admin/sendsms`, {
      method: 'POST',
      headers: {
        ...running.as(OWNER),
        'content-type': 'application/json',
        'idempotency-key': `metrics-${randomBytes(4).toString('hex')}`,
      },
      body: JSON.stringify({
        numbers: numbers.map((number) => ({ number })),
        message: 'Metrics test',
      }),
    });
    expect(sent.statusCode).toBe(202);
    await sent.body.dump();

    const handed = (samples: Map<string, Sample[]>) =>
      value(samples, 'blockcatch_message_queued_to_provider_seconds_count', {
        class: 'marketing',
      });
    const outcomes = (samples: Map<string, Sample[]>) =>
      value(samples, 'blockcatch_message_outcomes_total');
    await eventually(async () => {
      const now = await scrape();
      expect(handed(now) - handed(before)).toBe(numbers.length);
      expect(outcomes(now) - outcomes(before)).toBe(numbers.length);
      expect(value(now, 'blockcatch_messages_waiting', { class: 'marketing' })).toBe(0);
    });
  });

  it('reports the event loop, memory and the database connection', async () => {
    // The first scrape starts the measure; a later one reports it.
    await scrape();
    await eventually(async () =>
      expect(
        value(await scrape(), 'blockcatch_event_loop_delay_seconds', { stat: 'max' }),
      ).toBeGreaterThan(0),
    );
    const samples = await scrape();
    expect(value(samples, 'blockcatch_process_memory_bytes', { kind: 'rss' })).toBeGreaterThan(
      value(samples, 'blockcatch_process_memory_bytes', { kind: 'heap' }),
    );
    // PGlite's one connection: busy or idle.
    expect(
      value(samples, 'blockcatch_db_pool_connections', { state: 'busy' }) +
        value(samples, 'blockcatch_db_pool_connections', { state: 'idle' }),
    ).toBe(1);
    expect(samples.has('blockcatch_db_requests_waiting')).toBe(true);
    expect(samples.has('blockcatch_catcher_drivers')).toBe(true);
  });
});
