// `npm run bench:load`: the mixed load on loopback, against a gateway this script starts in a
// process of its own, on PGlite and on PostgreSQL (a schema of its own, dropped after):
//   - `--admins` admins reading the users table back to back (one connection each),
//   - `--drivers` drivers polling their dashboard once a second,
//   - one `--recipients`-recipient SMS send by the owner through the outbox provider, rate limit off,
//   - a probe opening a new connection to the health check every 250 ms.
// Prints per endpoint p50/p99/max and errors, the gateway's event-loop delay and RSS.
// Defaults: 50 admins, 200 drivers, 180 s, 100,000 users, 5,000 recipients, both databases.
// Short run: npm run bench:load -- --seconds 20 --admins 10 --drivers 50 --users 20000
import { type ChildProcess, fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { Agent, Client, request } from 'undici';
import { z } from 'zod';
import { signIn } from '../test/helpers/sign-in.js';
import type { LoadGatewayReady, LoadGatewayStats } from './load-gateway.js';

const POSTGRES_URL =
  process.env.BLOCKCATCH_TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

const optionsSchema = z.object({
  seconds: z.coerce.number().int().min(1).max(600),
  admins: z.coerce.number().int().min(0).max(500),
  drivers: z.coerce.number().int().min(0).max(2000),
  users: z.coerce.number().int().min(1000).max(1_000_000),
  recipients: z.coerce.number().int().min(0).max(100_000),
  databases: z.array(z.enum(['pglite', 'postgres'])).min(1),
});
type Options = z.infer<typeof optionsSchema>;

function readOptions(): Options {
  const { values } = parseArgs({
    options: {
      seconds: { type: 'string', default: '180' },
      admins: { type: 'string', default: '50' },
      drivers: { type: 'string', default: '200' },
      users: { type: 'string', default: '100000' },
      recipients: { type: 'string', default: '5000' },
      databases: { type: 'string', default: 'pglite,postgres' },
    },
  });
  const parsed = optionsSchema.safeParse({ ...values, databases: values.databases.split(',') });
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`--${issue?.path.join('.')}: ${issue?.message}`);
  }
  if (parsed.data.recipients > parsed.data.users) {
    throw new Error('--recipients: must be at most --users');
  }
  return parsed.data;
}

/** Latencies (ms) and failures of one endpoint; at most MAX_SAMPLES kept, so memory is bounded. */
class Endpoint {
  static readonly MAX_SAMPLES = 2_000_000;
  readonly latencies: number[] = [];
  readonly failures = new Map<string, number>();
  count = 0;
  /** The first refused answer's status and body, to say why. */
  firstFailure: string | undefined;
  constructor(readonly name: string) {}

  record(ms: number, status: number | string) {
    this.count++;
    if (this.latencies.length < Endpoint.MAX_SAMPLES) this.latencies.push(ms);
    if (typeof status === 'string' || status >= 400) {
      const key = String(status);
      this.failures.set(key, (this.failures.get(key) ?? 0) + 1);
    }
  }

  summary(seconds: number): string {
    const sorted = Float64Array.from(this.latencies).sort();
    const at = (q: number) =>
      sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
    const errors = [...this.failures.values()].reduce((a, b) => a + b, 0);
    const kinds = [...this.failures].map(([key, n]) => `${key}×${n}`).join(', ');
    return (
      `  ${this.name.padEnd(34)} ${String(this.count).padStart(7)} req ` +
      `${(this.count / seconds).toFixed(1).padStart(7)}/s  p50 ${at(0.5).toFixed(0).padStart(5)} ms  ` +
      `p99 ${at(0.99).toFixed(0).padStart(5)} ms  max ${at(1).toFixed(0).padStart(6)} ms  ` +
      `errors ${errors}${kinds ? ` (${kinds})` : ''}` +
      (this.firstFailure ? `\n    first refusal: ${this.firstFailure}` : '')
    );
  }
}

async function timed(
  endpoint: Endpoint,
  run: () => Promise<{
    statusCode: number;
    body: { text(): Promise<string>; dump(): Promise<void> };
  }>,
) {
  const started = performance.now();
  try {
    const answer = await run();
    if (answer.statusCode >= 400 && endpoint.firstFailure === undefined) {
      endpoint.firstFailure = `${answer.statusCode} ${(await answer.body.text()).slice(0, 200)}`;
    } else {
      await answer.body.dump();
    }
    endpoint.record(performance.now() - started, answer.statusCode);
  } catch (error) {
    endpoint.record(performance.now() - started, (error as { code?: string }).code ?? 'error');
  }
}

/** One request/answer exchange with the gateway process over IPC. */
function ask<T>(child: ChildProcess, type: string): Promise<T> {
  return new Promise((resolve) => {
    child.once('message', (message) => resolve(message as T));
    child.send({ type });
  });
}

async function startGateway(options: Options, database: 'pglite' | 'postgres') {
  const schema = `bench_load_${randomBytes(5).toString('hex')}`;
  const child = fork(fileURLToPath(new URL('./load-gateway.ts', import.meta.url)), {
    env: {
      ...process.env,
      LOAD_USERS: String(options.users),
      LOAD_DRIVERS: String(options.drivers),
      LOAD_RECIPIENTS: String(options.recipients),
      ...(database === 'postgres' ? { LOAD_DATABASE_URL: POSTGRES_URL, LOAD_SCHEMA: schema } : {}),
    },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const ready = await new Promise<LoadGatewayReady>((resolve, reject) => {
    child.once('message', (message) => resolve(message as LoadGatewayReady));
    child.once('exit', (code) => reject(new Error(`the gateway process exited (${code})`)));
  });
  return { child, ready };
}

/** Signs many accounts in, a few at a time. */
async function signInAll(
  ready: LoadGatewayReady,
  accounts: { phoneNumber: string; password: string }[],
) {
  const tokens: string[] = new Array(accounts.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (next < accounts.length) {
        const i = next++;
        const account = accounts[i]!;
        tokens[i] = await signIn(ready.url, ready.clientId, account.phoneNumber, account.password);
      }
    }),
  );
  return tokens;
}

async function runOnce(options: Options, database: 'pglite' | 'postgres'): Promise<string[]> {
  const setUp = performance.now();
  const { child, ready } = await startGateway(options, database);
  const lines: string[] = [];
  try {
    const [adminToken, ownerToken] = await signInAll(ready, [ready.admin, ready.owner]);
    const driverTokens = await signInAll(ready, ready.drivers);
    lines.push(
      `set-up (${options.users.toLocaleString('en-US')} users, ${options.drivers} driver accounts, sign-ins): ${((performance.now() - setUp) / 1000).toFixed(1)} s`,
    );

    const table = new Endpoint('GET all-users-table (admins)');
    const dashboard = new Endpoint('GET dashboard (drivers)');
    const health = new Endpoint('GET health, new connection');
    const send = new Endpoint(`POST sendsms (${options.recipients} recipients)`);
    const agent = new Agent({ connections: 1, keepAliveTimeout: 30_000 });
    const url = ready.url;

    const start = await ask<LoadGatewayStats>(child, 'stats');
    await ask(child, 'reset');
    const began = performance.now();
    const end = began + options.seconds * 1000;
    const running = () => performance.now() < end;
    const samples: LoadGatewayStats[] = [];
    let onTime = 0;
    let polls = 0;

    const work: Promise<void>[] = [];
    // Admins: each on its own connection, the next read as soon as the last answer is in.
    for (let a = 0; a < options.admins; a++) {
      const pool = new Client(url, { keepAliveTimeout: 30_000 });
      work.push(
        (async () => {
          while (running()) {
            await timed(table, () =>
              pool.request({
                path: '/api/flex/v1/all-users-table',
                method: 'GET',
                headers: { authorization: adminToken!, 'accept-encoding': 'gzip' },
              }),
            );
          }
          await pool.close();
        })(),
      );
    }
    // Drivers: a poll each second on a schedule of their own; a late answer delays the next poll.
    for (const token of driverTokens) {
      const pool = new Client(url, { keepAliveTimeout: 30_000 });
      work.push(
        (async () => {
          let due = performance.now() + Math.random() * 1000;
          while (running()) {
            const wait = due - performance.now();
            if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
            if (!running()) break;
            if (performance.now() - due < 250) onTime++;
            polls++;
            await timed(dashboard, () =>
              pool.request({
                path: '/api/flex/v1/dashboard',
                method: 'GET',
                headers: { authorization: token },
              }),
            );
            due = Math.max(due + 1000, performance.now());
          }
          await pool.close();
        })(),
      );
    }
    // New connections: how long a fresh client waits for its first answer.
    work.push(
      (async () => {
        while (running()) {
          const client = new Client(url);
          await timed(health, () => client.request({ path: '/api/status/health', method: 'GET' }));
          await client.close();
          await new Promise((resolve) => setTimeout(resolve, 250));
        }
      })(),
    );
    // One send, two seconds in.
    if (options.recipients > 0) {
      work.push(
        (async () => {
          await new Promise((resolve) => setTimeout(resolve, 2000));
          await timed(send, () =>
            request(`${url}/api/flex/v1/admin/sendsms`, {
              method: 'POST',
              dispatcher: agent,
              headers: {
                authorization: ownerToken!,
                'content-type': 'application/json',
                'idempotency-key': `bench-load-${randomBytes(4).toString('hex')}`,
              },
              body: JSON.stringify({
                numbers: ready.recipients.map((number) => ({ number })),
                message: 'Blocks are open this afternoon.',
              }),
            }),
          );
        })(),
      );
    }
    // The gateway's own figures every 5 s: memory over time shows whether it stays flat.
    work.push(
      (async () => {
        while (running()) {
          await new Promise((resolve) =>
            setTimeout(resolve, Math.min(5000, Math.max(0, end - performance.now()))),
          );
          samples.push(await ask<LoadGatewayStats>(child, 'stats'));
        }
      })(),
    );
    await Promise.all(work);
    const seconds = (performance.now() - began) / 1000;
    await agent.close();
    const last = samples.at(-1) ?? (await ask<LoadGatewayStats>(child, 'stats'));

    lines.push(
      `load: ${options.admins} admins back to back, ${options.drivers} drivers polling each second, ${seconds.toFixed(1)} s`,
      ...[table, dashboard, health, send].filter((e) => e.count > 0).map((e) => e.summary(seconds)),
      `  driver polls: ${(polls / Math.max(1, options.drivers) / seconds).toFixed(2)} per driver per second (goal 1), ${polls > 0 ? ((100 * onTime) / polls).toFixed(1) : '0'}% started within 250 ms of due`,
      `  gateway event-loop delay: mean ${last.lag.mean} ms, p50 ${last.lag.p50} ms, p99 ${last.lag.p99} ms, max ${last.lag.max} ms`,
      `  gateway RSS: ${start.rssMb} MB before, ${samples.map((s) => s.rssMb).join(' → ')} MB every 5 s`,
      `  send: ${last.delivered} of ${options.recipients} recipients delivered by the end`,
    );
  } finally {
    await Promise.race([ask(child, 'stop'), new Promise((resolve) => child.once('exit', resolve))]);
  }
  return lines;
}

const options = readOptions();
for (const database of options.databases) {
  console.log(`\n## Mixed load on ${database === 'pglite' ? 'PGlite (embedded)' : 'PostgreSQL'}`);
  for (const line of await runOnce(options, database)) console.log(line);
}
