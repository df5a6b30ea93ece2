// An authenticated read, GET /api/flex/v1/user, on PostgreSQL with every limit on (the request
// limit shared through the database, the principal cache reading its versions once a second),
// beside the floor: a bare Fastify server that verifies the same RS256 id token with jose against
// the gateway's published key and sends the same answer. 50 connections, one after the other.
// Run alone: npx tsx --conditions=source packages/gateway/bench/authenticated-read.bench.ts
// (BENCH_DURATION=seconds per run, default 10; BENCH_REDIS=1 adds a run with REDIS_URL set).
import { loadavg } from 'node:os';
import { pathToFileURL } from 'node:url';
import autocannon from 'autocannon';
import Fastify, { type FastifyInstance } from 'fastify';
import { createLocalJWKSet, type JSONWebKeySet, jwtVerify } from 'jose';
import { request } from 'undici';
import { generateStaff } from '../../../fixtures/generate-data.js';
import type { GatewayConfigInput } from '../src/config.js';
import { staffUserRow } from '../src/seed.js';
import { buildGateway, type Gateway } from '../src/server.js';
import { insertUsers } from '../src/storage/users.js';
import { signIn } from '../test/helpers/sign-in.js';

const PATH = '/api/flex/v1/user';
const CONNECTIONS = 50;
const RATIO_GOAL = 0.5;
const P99_GOAL_MS = 20;
const DATABASE_URL =
  process.env.BLOCKCATCH_TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';

const load1 = () => loadavg()[0]!.toFixed(2);

async function listen(app: FastifyInstance): Promise<string> {
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  return `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
}

async function run(url: string, authorization: string, duration: number) {
  // A worker thread fires the requests, so the load generator does not share the servers' loop.
  const result = await autocannon({
    url,
    connections: CONNECTIONS,
    duration,
    workers: 1,
    headers: { authorization },
  });
  if (result.errors > 0 || result.non2xx > 0) {
    throw new Error(`${url}: ${result.errors} errors and ${result.non2xx} non-2xx answers`);
  }
  return { rps: result.requests.average, p99: result.latency.p99, load: load1() };
}

/** The floor: verify the token as the gateway must, then send the answer, and nothing else. */
async function startFloor(jwks: JSONWebKeySet, issuer: string, clientId: string, body: string) {
  const keys = createLocalJWKSet(jwks);
  const app = Fastify();
  app.get(PATH, async (req, reply) => {
    const header = req.headers.authorization ?? '';
    try {
      await jwtVerify(header, keys, { algorithms: ['RS256'], issuer, audience: clientId });
    } catch {
      return reply.status(401).send({ code: 'unauthenticated' });
    }
    return reply.type('application/json; charset=utf-8').send(body);
  });
  return { app, url: await listen(app) };
}

async function startGateway(config: Partial<GatewayConfigInput>) {
  const gateway = await buildGateway({
    port: 0,
    logLevel: 'silent',
    seed: false,
    quietHours: false,
    databaseUrl: DATABASE_URL,
    // Every client of the bench comes from 127.0.0.1: the limit is on, at a height 50 connections
    // for a few seconds stay under, so that every request is counted and none refused.
    rateLimit: { perMinute: 1_000_000 },
    ...config,
  });
  const admin = generateStaff()[1]!;
  await insertUsers(gateway.db, [staffUserRow(admin, Date.now())]);
  await gateway.identity.ensureAccount(admin);
  return { gateway, admin, url: await listen(gateway.app) };
}

async function measure(label: string, config: Partial<GatewayConfigInput>, duration: number) {
  const schema = `bench_authenticated_read_${process.pid}_${config.redisUrl ? 'redis' : 'db'}`;
  let gateway: Gateway | null = null;
  let floor: FastifyInstance | null = null;
  try {
    const started = await startGateway({ databaseSchema: schema, ...config });
    gateway = started.gateway;
    const token = await signIn(
      started.url,
      gateway.config.clientId,
      started.admin.phoneNumber,
      started.admin.password,
    );
    const answer = await request(`${started.url}${PATH}`, { headers: { authorization: token } });
    const body = await answer.body.text();
    if (answer.statusCode !== 200) throw new Error(`${PATH} answered ${answer.statusCode}`);
    const jwks = (await (
      await request(`${started.url}/.well-known/jwks.json`)
    ).body.json()) as JSONWebKeySet;
    const claims = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as {
      iss: string;
    };
    const bare = await startFloor(jwks, claims.iss, gateway.config.clientId, body);
    floor = bare.app;

    // Warm both (JIT, connections, the principal cache) before measuring.
    await run(`${started.url}${PATH}`, token, 1);
    await run(`${bare.url}${PATH}`, token, 1);
    const ours = await run(`${started.url}${PATH}`, token, duration);
    const theirs = await run(`${bare.url}${PATH}`, token, duration);
    const ratio = ours.rps / theirs.rps;
    const met = ratio >= RATIO_GOAL && ours.p99 < P99_GOAL_MS;
    return [
      `${label}: gateway ${Math.round(ours.rps).toLocaleString('en-US')} req/s p99 ${ours.p99} ms (load ${ours.load}); bare Fastify + jose ${Math.round(theirs.rps).toLocaleString('en-US')} req/s p99 ${theirs.p99} ms (load ${theirs.load}); ratio ${ratio.toFixed(2)} (goal >= ${RATIO_GOAL} and p99 < ${P99_GOAL_MS} ms${met ? ', met' : ', NOT met'})`,
    ];
  } finally {
    await floor?.close();
    if (gateway) {
      await gateway.db.query(`DROP SCHEMA "${schema}" CASCADE`);
      await gateway.close();
    }
  }
}

export async function benchAuthenticatedRead(): Promise<string[]> {
  const duration = Number(process.env.BENCH_DURATION ?? 10);
  const lines = await measure(`GET ${PATH}, PostgreSQL, ${CONNECTIONS} connections`, {}, duration);
  if (process.env.BENCH_REDIS === '1') {
    lines.push(
      ...(await measure(
        `GET ${PATH}, PostgreSQL with REDIS_URL, ${CONNECTIONS} connections`,
        { redisUrl: REDIS_URL },
        duration,
      )),
    );
  }
  return lines;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  benchAuthenticatedRead().then(
    (lines) => {
      for (const line of lines) console.log(line);
    },
    (error: unknown) => {
      console.error(error);
      process.exitCode = 1;
    },
  );
}
