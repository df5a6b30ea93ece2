// `npm run bench:load`: the mixed load on loopback, against a gateway this script starts in a
// process of its own, on PGlite and on PostgreSQL (a schema of its own, dropped after):
//   - `--admins` admins reading the users table back to back (one connection each), each as a
//     browser does: the whole answer once, then asking again with its ETag (If-None-Match), so a
//     full answer comes only after the table changed; `--full-reads` has every read download the
//     whole table instead (about 1 GB/s over loopback with 100,000 users: the machine's limit),
//   - `--drivers` drivers polling their dashboard once a second,
//   - one `--recipients`-recipient SMS send by the owner through the outbox provider, rate limit off,
//   - a probe opening a new connection to the health check every 250 ms,
//   - `--new-clients` new clients arriving at once a quarter of the way in, during the admin load,
//   - `--burst` connections opened at once half way in, and before the load begins (the machine to
//     the gateway alone: the first burst after the start, then one once it is warm), each beside
//     the same burst on a bare Fastify server, and each new client's wait split at the gateway's
//     accept: how long it waited to be accepted, and its time inside the gateway after it.
// Prints each figure beside its goal: per endpoint p50/p99/max and errors, the drivers' poll rate,
// the gateway's event-loop delay and its RSS over the run.
// Defaults: 50 admins, 200 drivers, 180 s, 100,000 users, 5,000 recipients, 200 new clients, a
// burst of 1,000, PGlite and PostgreSQL. `--databases pglite-in-thread,pglite,postgres` adds PGlite
// on the HTTP thread (how the gateway ran it before its worker thread) for comparison.
// Short run: npm run bench:load -- --seconds 20 --admins 10 --drivers 50 --users 20000
import { type ChildProcess, fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { loadavg } from 'node:os';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { Agent, Client, request } from 'undici';
import { z } from 'zod';
import { signIn } from '../test/helpers/sign-in.js';
import type { LoadGatewayAccepted, LoadGatewayReady, LoadGatewayStats } from './load-gateway.js';
import { LOAD_SEND_MESSAGE } from './load-send.js';
import { readToEnd } from './read-to-end.js';
import { describeRssGrowth, RSS_SAMPLE_SECONDS, rssGrowth } from './rss-growth.js';

const POSTGRES_URL =
  process.env.BLOCKCATCH_TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

const optionsSchema = z.object({
  seconds: z.coerce.number().int().min(1).max(600),
  admins: z.coerce.number().int().min(0).max(500),
  drivers: z.coerce.number().int().min(0).max(2000),
  users: z.coerce.number().int().min(1000).max(1_000_000),
  recipients: z.coerce.number().int().min(0).max(100_000),
  newClients: z.coerce.number().int().min(0).max(5000),
  burst: z.coerce.number().int().min(0).max(10_000),
  fullReads: z.boolean(),
  databases: z.array(z.enum(['pglite', 'pglite-in-thread', 'postgres'])).min(1),
});
export type Database = Options['databases'][number];

export const DATABASE_NAMES: Record<Database, string> = {
  pglite: 'PGlite (embedded, in its worker thread)',
  'pglite-in-thread': 'PGlite (embedded, on the HTTP thread: before the worker)',
  postgres: 'PostgreSQL',
};

// The goals each figure is printed beside.
/** Every endpoint under the mixed load: PostgreSQL's figures when the load was first measured. */
const GOAL_P99_MS = 400;
/** A new client's first answer. */
const GOAL_NEW_CONNECTION_P99_MS = 200;
/** Drivers poll once a second. */
const GOAL_POLLS_PER_SECOND = 1;
/**
 * Unmeasured bursts a server gets before its measured one. A process answers its first bursts
 * slower while V8 compiles and its heap grows (the gateway's first four: p99 477, 374, 286, 192 ms);
 * one in service has long been past that, and a cold floor would flatter the comparison.
 */
const WARM_UP_BURSTS = 3;
/** How long a burst connection may wait for its answer before it counts as never served. */
const BURST_TIMEOUT_MS = 30_000;
export type Options = z.infer<typeof optionsSchema>;

function readOptions(): Options {
  const { values } = parseArgs({
    options: {
      seconds: { type: 'string', default: '180' },
      admins: { type: 'string', default: '50' },
      drivers: { type: 'string', default: '200' },
      users: { type: 'string', default: '100000' },
      recipients: { type: 'string', default: '5000' },
      'new-clients': { type: 'string', default: '200' },
      burst: { type: 'string', default: '1000' },
      databases: { type: 'string', default: 'pglite,postgres' },
      'full-reads': { type: 'boolean', default: false },
    },
  });
  const parsed = optionsSchema.safeParse({
    ...values,
    newClients: values['new-clients'],
    fullReads: values['full-reads'],
    databases: values.databases.split(','),
  });
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

  /** The latency at quantile `q` (0–1), in ms. */
  at(q: number): number {
    const sorted = Float64Array.from(this.latencies).sort();
    return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
  }

  get errors(): number {
    return [...this.failures.values()].reduce((a, b) => a + b, 0);
  }

  summary(seconds: number, goalP99Ms: number): string {
    const kinds = [...this.failures].map(([key, n]) => `${key}×${n}`).join(', ');
    const p99 = this.at(0.99);
    const met = p99 < goalP99Ms && this.errors === 0;
    return (
      `  ${this.name.padEnd(40)} ${String(this.count).padStart(7)} req ` +
      `${(this.count / seconds).toFixed(1).padStart(7)}/s  p50 ${this.at(0.5).toFixed(0).padStart(5)} ms  ` +
      `p99 ${p99.toFixed(0).padStart(5)} ms  max ${this.at(1).toFixed(0).padStart(6)} ms  ` +
      `errors ${this.errors}${kinds ? ` (${kinds})` : ''}  ` +
      `[goal: p99 < ${goalP99Ms} ms, 0 errors: ${met ? 'met' : 'NOT met'}]` +
      (this.firstFailure ? `\n    first refusal: ${this.firstFailure}` : '')
    );
  }
}

/**
 * Times one request. Resolves to how long the gateway asked the client to wait before the next
 * (`Retry-After` on a 503, in ms), which the simulated clients honour as the SDK does.
 */
async function timed(
  endpoint: Endpoint,
  run: () => Promise<{
    statusCode: number;
    headers: Record<string, string | string[] | undefined>;
    body: AsyncIterable<unknown> & { text(): Promise<string> };
  }>,
): Promise<number> {
  const started = performance.now();
  try {
    const answer = await run();
    if (answer.statusCode >= 400 && endpoint.firstFailure === undefined) {
      endpoint.firstFailure = `${answer.statusCode} ${(await answer.body.text()).slice(0, 200)}`;
    } else {
      await readToEnd(answer.body);
    }
    endpoint.record(performance.now() - started, answer.statusCode);
    const retryAfter = Number(answer.headers['retry-after']);
    return answer.statusCode === 503 && retryAfter > 0 ? retryAfter * 1000 : 0;
  } catch (error) {
    endpoint.record(performance.now() - started, (error as { code?: string }).code ?? 'error');
    return 0;
  }
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** One exchange with the gateway process over IPC: sends `type`, resolves with the `answerType` message. */
function ask<T>(child: ChildProcess, type: string, answerType = type): Promise<T> {
  return new Promise((resolve) => {
    // The RSS sampler asks for stats every 5 s meanwhile: its answers are not this one.
    const onMessage = (message: { type?: string }) => {
      if (message.type !== answerType) return;
      child.off('message', onMessage);
      resolve(message as T);
    };
    child.on('message', onMessage);
    child.send({ type });
  });
}

/** A child process's first message, or an error naming `what` if it exits before sending one. */
function firstMessage<T>(child: ChildProcess, what: string): Promise<T> {
  return new Promise((resolve, reject) => {
    const exited = (code: number | null) => reject(new Error(`${what} exited (${code})`));
    child.once('exit', exited);
    child.once('message', (message) => {
      child.off('exit', exited);
      resolve(message as T);
    });
  });
}

async function startGateway(options: Options, database: Database) {
  const schema = `bench_load_${randomBytes(5).toString('hex')}`;
  const child = fork(fileURLToPath(new URL('./load-gateway.ts', import.meta.url)), {
    env: {
      ...process.env,
      LOAD_USERS: String(options.users),
      LOAD_DRIVERS: String(options.drivers),
      LOAD_RECIPIENTS: String(options.recipients),
      ...(database === 'postgres' ? { LOAD_DATABASE_URL: POSTGRES_URL, LOAD_SCHEMA: schema } : {}),
      ...(database === 'pglite-in-thread' ? { LOAD_PGLITE_IN_THREAD: '1' } : {}),
    },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const ready = await firstMessage<LoadGatewayReady>(child, 'the gateway process');
  return { child, ready };
}

/** A bare Fastify server in a process of its own (bare-health.ts). */
async function startBareServer(): Promise<{ child: ChildProcess; url: string }> {
  const child = fork(fileURLToPath(new URL('./bare-health.ts', import.meta.url)), {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const { url } = await firstMessage<{ url: string }>(child, 'the bare server');
  return { child, url };
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

/**
 * `count` new clients at once, each on a connection of its own, each timing its first answer from
 * the health check (connecting included), from a process of their own (burst-client.mjs) so that
 * neither building the clients nor this process's own load is counted as the server's time. A
 * client not answered within BURST_TIMEOUT_MS counts as never served.
 */
async function newClientsAtOnce(url: string, endpoint: Endpoint, count: number): Promise<number> {
  const child = fork(
    fileURLToPath(new URL('./burst-client.mjs', import.meta.url)),
    [url, String(count), String(BURST_TIMEOUT_MS)],
    { execArgv: [], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] },
  );
  const { began, results } = await firstMessage<{
    began: number;
    results: [number, number | string][];
  }>(child, 'the burst client');
  for (const [ms, status] of results) endpoint.record(ms, status);
  return began;
}

/**
 * `count` new clients at the gateway, and two shares of each one's wait (health checks on new
 * connections made meanwhile included): `waiting`, from the burst's start until the gateway
 * accepted its connection, and `inside`, from the accept to the answer's last byte. The rest passed
 * in the client. Node accepts one connection per turn of its event loop, so under load the accepts
 * of a burst spread over as many turns as it has connections (docs/operations.md).
 */
async function newClientsSplitAtAccept(
  child: ChildProcess,
  url: string,
  clients: { ours: Endpoint; waiting: Endpoint; inside: Endpoint },
  count: number,
) {
  await ask(child, 'accepted');
  const began = await newClientsAtOnce(url, clients.ours, count);
  const { ms, acceptedAt } = await ask<LoadGatewayAccepted>(child, 'accepted');
  for (const [i, time] of ms.entries()) {
    clients.inside.record(time, 200);
    const waited = acceptedAt[i]! - began;
    if (waited >= 0) clients.waiting.record(waited, 200);
  }
}

/**
 * A burst of `count` connections at the gateway, then the same at the bare Fastify server, at once
 * and under the same load: what this machine gives any server.
 */
async function burstBesideFloor(
  child: ChildProcess,
  url: string,
  bareUrl: string,
  burst: { ours: Endpoint; waiting: Endpoint; inside: Endpoint; floor: Endpoint },
  count: number,
) {
  await newClientsSplitAtAccept(child, url, burst, count);
  await newClientsAtOnce(bareUrl, burst.floor, count);
}

/** New clients' waits, and the two shares of them the gateway process can tell. */
function newClientEndpoints(name: string) {
  return {
    ours: new Endpoint(name),
    waiting: new Endpoint('  of which waiting to be accepted'),
    inside: new Endpoint('  of which inside the gateway, accept to answer'),
  };
}

/** A burst's figures: the clients' waits, their shares, and the floor's. */
function burstEndpoints(name: string) {
  return {
    ...newClientEndpoints(name),
    floor: new Endpoint('  floor: the same burst, bare Fastify'),
  };
}

/**
 * The address simulated client `i` of a `group` says it has (X-Forwarded-For, one hop trusted):
 * each is a client of its own to the per-address request limit, as behind a balancer, rather than
 * all of them one client at 127.0.0.1.
 */
function clientAddress(group: number, i: number): string {
  return `10.${group}.${Math.floor(i / 250)}.${(i % 250) + 1}`;
}

/** WARM_UP_BURSTS bursts of `count` connections at `url`, not measured. */
async function warmUp(url: string, count: number) {
  for (let i = 0; i < WARM_UP_BURSTS; i++)
    await newClientsAtOnce(url, new Endpoint('warm-up'), count);
}

/** One run of the mixed load on `database`: the printed lines, and the gateway's RSS every 5 s (MB). */
export async function runMixedLoad(
  options: Options,
  database: Database,
): Promise<{ lines: string[]; rssMb: number[] }> {
  const setUp = performance.now();
  const { child, ready } = await startGateway(options, database);
  const lines: string[] = [];
  const samples: LoadGatewayStats[] = [];
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
    const arriving = newClientEndpoints(`GET health, ${options.newClients} new clients at once`);
    const burst = burstEndpoints(`GET health, ${options.burst} connections at once`);
    const agent = new Agent({ connections: 1, keepAliveTimeout: 30_000 });
    const url = ready.url;

    // The same burst before the load begins, beside bare Fastify's: what the gateway does with the
    // machine to itself, so the burst under load can be told apart from the share the load leaves.
    // The first burst after the start is measured on its own (a restarted process meets one), the
    // comparison once both servers are warm.
    const coldBurst = new Endpoint(`GET health, ${options.burst} at once, first after start`);
    const idleBurst = burstEndpoints(`GET health, ${options.burst} at once, no load yet`);
    // The bare server is started and warmed here, once, and serves the burst under load too. Started
    // and warmed half way through the load instead, it took the machine from the gateway for about
    // 8 s: on PGlite the drivers' dashboard answered at p50 600-700 ms through them, against 50-200
    // ms around them, and that alone set the run's p99.
    const bare = options.burst > 0 ? await startBareServer() : null;
    if (bare) {
      await newClientsAtOnce(url, coldBurst, options.burst);
      await warmUp(url, options.burst);
      await warmUp(bare.url, options.burst);
      await burstBesideFloor(child, url, bare.url, idleBurst, options.burst);
    }

    const start = await ask<LoadGatewayStats>(child, 'stats');
    await ask(child, 'reset');
    // This process's own delay: every latency above includes it, so a busy load generator shows.
    const ownLag = monitorEventLoopDelay({ resolution: 10 });
    ownLag.enable();
    const began = performance.now();
    const end = began + options.seconds * 1000;
    const running = () => performance.now() < end;
    let onTime = 0;
    let polls = 0;
    /** Polls that fell due during the run: each driver's first comes at a random point of second 1. */
    let dueTotal = 0;

    const work: Promise<void>[] = [];
    // Admins: each on its own connection, the next read as soon as the last answer is in.
    let fullAnswers = 0;
    let notModified = 0;
    for (let a = 0; a < options.admins; a++) {
      const pool = new Client(url, { keepAliveTimeout: 30_000 });
      let etag: string | undefined;
      work.push(
        (async () => {
          while (running()) {
            const wait = await timed(table, async () => {
              const answer = await pool.request({
                path: '/api/flex/v1/all-users-table',
                method: 'GET',
                headers: {
                  authorization: adminToken!,
                  'x-forwarded-for': clientAddress(1, a),
                  'accept-encoding': 'gzip',
                  ...(etag && !options.fullReads ? { 'if-none-match': etag } : {}),
                },
              });
              if (answer.statusCode === 200) {
                fullAnswers++;
                const tag = answer.headers.etag;
                if (typeof tag === 'string') etag = tag;
              } else if (answer.statusCode === 304) notModified++;
              return answer;
            });
            if (wait > 0) await pause(Math.min(wait, end - performance.now()));
          }
          await pool.close();
        })(),
      );
    }
    // Drivers: a poll each second on a schedule of their own; a late answer delays the next poll.
    for (const [d, token] of driverTokens.entries()) {
      const pool = new Client(url, { keepAliveTimeout: 30_000 });
      work.push(
        (async () => {
          const first = performance.now() + Math.random() * 1000;
          let due = first;
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
                headers: { authorization: token, 'x-forwarded-for': clientAddress(2, d) },
              }),
            );
            due = Math.max(due + 1000, performance.now());
          }
          dueTotal += Math.max(0, Math.ceil((end - first) / 1000));
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
    // New clients arriving together while the admins read, a quarter of the way in; then a burst of
    // connections half way in.
    work.push(
      (async () => {
        const quarter = (options.seconds * 1000) / 4;
        await new Promise((resolve) => setTimeout(resolve, quarter));
        if (options.newClients > 0) {
          await newClientsSplitAtAccept(child, url, arriving, options.newClients);
        }
        const half = began + (options.seconds * 1000) / 2 - performance.now();
        if (half > 0) await new Promise((resolve) => setTimeout(resolve, half));
        if (bare) await burstBesideFloor(child, url, bare.url, burst, options.burst);
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
                'x-forwarded-for': clientAddress(3, 0),
                'content-type': 'application/json',
                'idempotency-key': `bench-load-${randomBytes(4).toString('hex')}`,
              },
              body: JSON.stringify({
                numbers: ready.recipients.map((number) => ({ number })),
                message: LOAD_SEND_MESSAGE,
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
            setTimeout(
              resolve,
              Math.min(RSS_SAMPLE_SECONDS * 1000, Math.max(0, end - performance.now())),
            ),
          );
          samples.push(await ask<LoadGatewayStats>(child, 'stats'));
        }
      })(),
    );
    await Promise.all(work);
    const seconds = (performance.now() - began) / 1000;
    bare?.child.disconnect();
    ownLag.disable();
    await agent.close();
    const last = samples.at(-1) ?? (await ask<LoadGatewayStats>(child, 'stats'));

    // Polls made per poll due, as polls per driver per second (a driver is due once a second).
    const pollRate = dueTotal > 0 ? polls / dueTotal : 0;
    const rss = samples.map((sample) => sample.rssMb);
    const verdict = (met: boolean) => (met ? 'met' : 'NOT met');
    lines.push(
      `load: ${options.admins} admins back to back, ${options.drivers} drivers polling each second, ${seconds.toFixed(1)} s; machine load average ${loadavg()
        .map((n) => n.toFixed(2))
        .join(', ')} (other processes share these cores: compare figures of one run)`,
      ...[table, dashboard, send]
        .filter((e) => e.count > 0)
        .map((e) => e.summary(seconds, GOAL_P99_MS)),
      `  users table: ${fullAnswers} whole answers, ${notModified} not modified (${options.fullReads ? 'every read downloads the whole table' : 'admins ask with the ETag of the answer they hold, as a browser does'})`,
      ...[
        health,
        ...Object.values(arriving),
        coldBurst,
        ...Object.values(idleBurst),
        ...Object.values(burst),
      ]
        .filter((e) => e.count > 0)
        .map((e) => e.summary(seconds, GOAL_NEW_CONNECTION_P99_MS)),
      ...(burst.ours.count > 0
        ? [
            `  burst: ${burst.ours.count - burst.ours.errors} of ${options.burst} connections served within ${BURST_TIMEOUT_MS / 1000} s [goal: all: ${verdict(burst.ours.errors === 0)}]`,
          ]
        : []),
      `  driver polls: ${polls} of ${dueTotal} due, ${pollRate.toFixed(2)} per driver per second, ${polls > 0 ? ((100 * onTime) / polls).toFixed(1) : '0'}% started within 250 ms of due [goal: >= ${(0.95 * GOAL_POLLS_PER_SECOND).toFixed(2)}/s: ${verdict(pollRate >= 0.95 * GOAL_POLLS_PER_SECOND)}]`,
      `  gateway event-loop delay: mean ${last.lag.mean} ms, p50 ${last.lag.p50} ms, p99 ${last.lag.p99} ms, max ${last.lag.max} ms [goal: max < ${GOAL_NEW_CONNECTION_P99_MS} ms, so a new connection can meet its goal: ${verdict(last.lag.max < GOAL_NEW_CONNECTION_P99_MS)}]`,
      `  gateway RSS: ${start.rssMb} MB at start, ${rss.at(-1) ?? start.rssMb} MB at end (${rss.join(' → ')} MB every ${RSS_SAMPLE_SECONDS} s); after the warm-up, ${describeRssGrowth(rssGrowth(rss))}`,
      `  send: ${last.delivered} of ${options.recipients} recipients delivered by the end, to ${last.deliveredTo} distinct numbers`,
      `  load generator's own event-loop delay (included in every latency above): p99 ${(ownLag.percentile(99) / 1e6).toFixed(1)} ms, max ${(ownLag.max / 1e6).toFixed(1)} ms`,
    );
  } finally {
    await Promise.race([
      ask(child, 'stop', 'stopped'),
      new Promise((resolve) => child.once('exit', resolve)),
    ]);
  }
  return { lines, rssMb: samples.map((sample) => sample.rssMb) };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const options = readOptions();
  for (const database of options.databases) {
    console.log(`\n## Mixed load on ${DATABASE_NAMES[database]}`);
    for (const line of (await runMixedLoad(options, database)).lines) console.log(line);
  }
}
