// The database going away under a running gateway, as a failover, a restart or an administrator
// does it: the process stays up, requests that need the database are answered 503 `unavailable`
// with Retry-After (never a 500, never a hang) while it is away, and it serves again by itself.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../../../tests/support/eventually.js';
import { POSTGRES_URL, uniqueSchema } from './helpers/database.js';
import { type RunningGateway, startGateway } from './helpers/gateway.js';
import { PUBLIC_URL, startGatewayProcess } from './helpers/gateway-process.js';
import { ADMIN, OWNER } from './helpers/people.js';
import { startTcpProxy, type TcpProxy } from './helpers/tcp-proxy.js';
import { phoneNumbers } from './messaging-harness.js';

/** Long enough that nothing but a hang reaches it: a refusal comes in milliseconds. */
const HANG_MS = 30_000;

const schemas: string[] = [];
const cleanups: (() => Promise<void>)[] = [];
let admin: pg.Client;

beforeAll(async () => {
  admin = new pg.Client({ connectionString: POSTGRES_URL });
  await admin.connect();
});

afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => {});
  for (const schema of schemas) await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  await admin.end();
});

interface Answer {
  status: number;
  code?: string;
  retryAfter?: string;
  /** Set when no answer came (a reset, a refused connection, a hang past HANG_MS). */
  failure?: string;
}

async function get(url: string, headers: Record<string, string> = {}): Promise<Answer> {
  try {
    const response = await request(url, {
      headers,
      headersTimeout: HANG_MS,
      bodyTimeout: HANG_MS,
    });
    const text = await response.body.text();
    const retryAfter = response.headers['retry-after'];
    let code: string | undefined;
    try {
      code = (JSON.parse(text) as { code?: string }).code;
    } catch {
      code = undefined;
    }
    return {
      status: response.statusCode,
      ...(code ? { code } : {}),
      ...(typeof retryAfter === 'string' ? { retryAfter } : {}),
    };
  } catch (error) {
    return { status: 0, failure: (error as Error).message };
  }
}

/** An answer a user may get while the database is away: served, or refused for a moment. */
function expectServedOrUnavailable(answer: Answer) {
  if (answer.status === 200) return;
  expect(answer).toMatchObject({ status: 503, code: 'unavailable' });
  expect(Number(answer.retryAfter)).toBeGreaterThanOrEqual(1);
}

/** Reads `url` back to back until stopped (or 20,000 requests), keeping every answer. */
function steadyTraffic(url: string, headers: Record<string, string>) {
  const answers: Answer[] = [];
  let running = true;
  const loop = (async () => {
    while (running && answers.length < 20_000) answers.push(await get(url, headers));
  })();
  return {
    answers,
    async stop() {
      running = false;
      await loop;
      return answers;
    },
  };
}

/** People, accounts and id tokens in `schema`, made by a gateway in this process, then closed. */
async function signedInPeople(schema: string) {
  const setup = await startGateway({
    databaseUrl: POSTGRES_URL,
    databaseSchema: schema,
    publicUrl: PUBLIC_URL,
  });
  const tokens = { owner: setup.as(OWNER), admin: setup.as(ADMIN) };
  await setup.gateway.close();
  return tokens;
}

describe('PostgreSQL ending the gateway’s sessions during a send', () => {
  it('keeps the process up, answers 503 unavailable at most, and delivers every recipient once', async () => {
    const schema = uniqueSchema();
    schemas.push(schema);
    const tokens = await signedInPeople(schema);
    // Its own name in pg_stat_activity: only this process's sessions are ended.
    const applicationName = `bc-outage-${randomBytes(4).toString('hex')}`;
    const gateway = await startGatewayProcess({
      schema,
      env: {
        BLOCKCATCH_DB_APPLICATION_NAME: applicationName,
        BLOCKCATCH_SEND_RATE: '40',
        // The readers loop as fast as they are answered: the request limit is not under test here.
        BLOCKCATCH_RATE_LIMIT_PER_MINUTE: '1000000',
      },
    });
    cleanups.push(async () => {
      if (gateway.child.exitCode === null) await gateway.stop('SIGKILL');
    });

    const numbers = phoneNumbers(240);
    const sent = await request(`${gateway.url}/api/flex/v1/admin/sendsms`, {
      method: 'POST',
      headers: {
        ...tokens.owner,
        'content-type': 'application/json',
        'idempotency-key': `outage-${applicationName}`,
      },
      body: JSON.stringify({
        numbers: numbers.map((number) => ({ number })),
        message: 'Blocks are open',
      }),
    });
    expect(sent.statusCode).toBe(202);
    const { jobId } = (await sent.body.json()) as { jobId: string };

    const delivered = async () =>
      (
        await admin.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM "${schema}".outbox_messages WHERE job_id = $1`,
          [jobId],
        )
      ).rows[0]!.n;
    const terminate = async () =>
      (
        await admin.query(
          'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1',
          [applicationName],
        )
      ).rowCount ?? 0;

    const traffic = steadyTraffic(`${gateway.url}/api/flex/v1/user`, tokens.admin);
    await eventually(async () => expect(await delivered()).toBeGreaterThanOrEqual(40), {
      timeout: 60_000,
    });
    const firstBlip = await terminate();
    await eventually(async () => expect(await delivered()).toBeGreaterThanOrEqual(120), {
      timeout: 60_000,
    });
    const secondBlip = await terminate();
    await eventually(async () => expect(await delivered()).toBe(numbers.length), {
      timeout: 90_000,
    });
    // Served again after the blips, by the same process.
    await eventually(async () =>
      expect((await get(`${gateway.url}/api/flex/v1/user`, tokens.admin)).status).toBe(200),
    );
    const answers = await traffic.stop();

    expect(firstBlip).toBeGreaterThan(0);
    expect(secondBlip).toBeGreaterThan(0);
    expect(gateway.child.exitCode).toBeNull();
    expect(answers.length).toBeGreaterThan(0);
    for (const answer of answers) expectServedOrUnavailable(answer);
    const perNumber = await admin.query<{ to_number: string; n: number }>(
      `SELECT to_number, count(*)::int AS n FROM "${schema}".outbox_messages
        WHERE job_id = $1 GROUP BY to_number`,
      [jobId],
    );
    expect(perNumber.rows.map((row) => row.to_number).sort()).toEqual([...numbers].sort());
    expect(perNumber.rows.every((row) => row.n === 1)).toBe(true);
    expect(gateway.output()).not.toContain('unhandled error');

    const refused = answers.filter((answer) => answer.status === 503).length;
    process.stdout.write(
      `sessions ended: ${firstBlip} then ${secondBlip}; ${answers.length} reads, ${refused} answered 503\n`,
    );
    const exit = await gateway.stop();
    expect(exit).toMatchObject({ code: 0, signal: null });
  }, 240_000);
});

describe('the database unreachable, then back', () => {
  let proxy: TcpProxy;
  let running: RunningGateway;

  beforeAll(async () => {
    const target = new URL(POSTGRES_URL);
    proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
    const throughProxy = new URL(POSTGRES_URL);
    throughProxy.port = String(proxy.port);
    const schema = uniqueSchema();
    schemas.push(schema);
    running = await startGateway({ databaseUrl: throughProxy.toString(), databaseSchema: schema });
    cleanups.push(() => running.gateway.close());
    cleanups.push(() => proxy.close());
  });

  it('answers 503 with Retry-After at once while it is away, is not ready, and serves again when it returns', async () => {
    const me = () => get(`${running.url}/api/flex/v1/user`, running.as(ADMIN));
    const ready = () => get(`${running.url}/api/status/ready`);
    const health = async () => {
      const response = await request(`${running.url}/api/status/health`);
      return {
        status: response.statusCode,
        body: await response.body.json(),
        versionId: response.headers['x-amz-version-id'],
      };
    };
    expect((await me()).status).toBe(200);
    expect((await ready()).status).toBe(200);
    expect(await health()).toMatchObject({ status: 200, body: { status: 'ok' } });

    await proxy.close();
    await eventually(async () => expect((await me()).status).toBe(503));
    // Every caller is refused at once, none waits for a connection that is not coming.
    const refused = await Promise.all(Array.from({ length: 10 }, me));
    for (const answer of refused) {
      expect(answer).toMatchObject({ status: 503, code: 'unavailable' });
      expect(Number(answer.retryAfter)).toBeGreaterThanOrEqual(1);
    }
    expect(await ready()).toMatchObject({ status: 503, code: 'unavailable' });
    // Liveness keeps its contract (200, the version headers); its body says what is wrong.
    expect(await health()).toMatchObject({
      status: 200,
      body: { status: 'degraded' },
      versionId: 'sandbox-1',
    });

    const back = performance.now();
    await proxy.open();
    await eventually(async () => expect((await me()).status).toBe(200));
    const servingAfter = Math.round(performance.now() - back);
    expect((await ready()).status).toBe(200);
    expect(await health()).toMatchObject({ status: 200, body: { status: 'ok' } });
    process.stdout.write(`first 200 after the database came back: ${servingAfter} ms\n`);
  });
});
