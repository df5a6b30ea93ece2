// GET /api/flex/v1/all-users-table with 100,000 Flex users, on loopback, beside a bare node:http
// server sending the same bytes: the gateway's cost per request over the cost of moving the bytes.
// Run alone: npx tsx packages/gateway/bench/users-table.bench.ts (BENCH_DURATION=seconds, default 10;
// BENCH_DATABASE=postgres for PostgreSQL at BLOCKCATCH_TEST_DATABASE_URL, in a schema of its own).
import { createServer, type Server } from 'node:http';
import { pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import autocannon from 'autocannon';
import { request } from 'undici';
import { signIn } from '../test/helpers/sign-in.js';
import { startLargeGateway } from './large-gateway.js';
import { readToEnd } from './read-to-end.js';

const USERS = 100_000;
const PATH = '/api/flex/v1/all-users-table';
const CONNECTIONS = 4;
/** The first answer after a start, built from the database. */
const COLD_TARGET_MS = 1000;
// Seconds before autocannon gives up on one answer: a 30 MB body on a busy loopback can take a few.
const TIMEOUT = 30;

function urlOf(server: Server): string {
  const address = server.address();
  return `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
}

/** The comparison: a server that does nothing but write the given bytes. */
async function startBareServer(body: Buffer, headers: Record<string, string>): Promise<Server> {
  const server = createServer((_req, res) => {
    res.writeHead(200, { ...headers, 'content-length': body.length });
    res.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return server;
}

async function load(url: string, headers: Record<string, string>, duration: number) {
  // A worker thread fires the requests, so the load generator does not share the servers' event loop.
  const result = await autocannon({
    url,
    connections: CONNECTIONS,
    duration,
    timeout: TIMEOUT,
    workers: 1,
    headers,
  });
  if (result.errors > 0 || result.non2xx > 0) {
    throw new Error(
      `${url}: ${result.errors} errors and ${result.non2xx} non-2xx answers under load`,
    );
  }
  return { rps: result.requests.average, p99: result.latency.p99 };
}

const mb = (bytes: number) => `${(bytes / 1_048_576).toFixed(1)} MB`;

export async function benchUsersTable(): Promise<string[]> {
  const duration = Number(process.env.BENCH_DURATION ?? 10);
  const postgres = process.env.BENCH_DATABASE === 'postgres';
  const databaseUrl =
    process.env.BLOCKCATCH_TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
  const schema = `bench_users_table_${process.pid}`;
  const { gateway, url, admin, insertMs } = await startLargeGateway(
    USERS,
    postgres ? { databaseUrl, databaseSchema: schema } : {},
  );
  const bare: Server[] = [];
  try {
    // Signs in the way every client does: the sandbox admin through the user pool, USER_PASSWORD_AUTH.
    const authorization = await signIn(
      url,
      gateway.config.clientId,
      admin.phoneNumber,
      admin.password,
    );

    const started = performance.now();
    const first = await request(`${url}${PATH}`, { headers: { authorization } });
    const body = Buffer.from(await first.body.arrayBuffer());
    const coldMs = performance.now() - started;
    if (first.statusCode !== 200) throw new Error(`${PATH} answered ${first.statusCode}`);

    const json = { 'content-type': 'application/json; charset=utf-8' };
    const plainServer = await startBareServer(body, json);
    const gzipServer = await startBareServer(gzipSync(body), {
      ...json,
      'content-encoding': 'gzip',
    });
    bare.push(plainServer, gzipServer);

    const lines = [
      `users table (${postgres ? 'PostgreSQL' : 'PGlite'}): ${USERS.toLocaleString('en-US')} Flex users, ${mb(body.length)} of JSON (inserted in ${(insertMs / 1000).toFixed(1)} s, first answer built in ${coldMs.toFixed(0)} ms, goal < ${COLD_TARGET_MS} ms${coldMs < COLD_TARGET_MS ? ', met' : ', NOT met'})`,
    ];
    for (const [label, server, extra] of [
      ['plain', plainServer, {}],
      ['gzip', gzipServer, { 'accept-encoding': 'gzip' }],
    ] as const) {
      // Warm-up: the gzip copy is made on the first request that asks for it, not under load.
      await readToEnd(
        (await request(`${url}${PATH}`, { headers: { authorization, ...extra } })).body,
      );
      const ours = await load(`${url}${PATH}`, { authorization, ...extra }, duration);
      const theirs = await load(`${urlOf(server)}${PATH}`, { ...extra }, duration);
      const ratio = ours.rps / theirs.rps;
      lines.push(
        `users table ${label}: gateway ${ours.rps.toFixed(1)} req/s p99 ${ours.p99} ms; bare node:http ${theirs.rps.toFixed(1)} req/s p99 ${theirs.p99} ms; ratio ${ratio.toFixed(2)} (target >= 0.50${ratio >= 0.5 ? ', met' : ', NOT met'})`,
      );
    }
    return lines;
  } finally {
    for (const server of bare) server.close();
    if (postgres) await gateway.db.query(`DROP SCHEMA "${schema}" CASCADE`);
    await gateway.close();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  benchUsersTable().then(
    (lines) => {
      for (const line of lines) console.log(line);
    },
    (error: unknown) => {
      console.error(error);
      process.exitCode = 1;
    },
  );
}
