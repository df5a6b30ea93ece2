// The embedded database's memory: the gateway's RSS on PGlite in a data folder, each figure from a
// process of its own, beside PostgreSQL's gateway process holding the same data (the floor: there
// the data lives in the server) and the goal (< 400 MB).
//   1. a first start with the default seed;
//   2. a start on a data folder holding 100,000 generated users, and after one users-table read.
// Run alone: npx tsx --conditions=source packages/gateway/bench/pglite-memory.bench.ts
// (BENCH_MEMORY_USERS, default 100,000).
import { fork } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { request } from 'undici';
import { signIn } from '../test/helpers/sign-in.js';
import { startLargeGateway } from './large-gateway.js';

const GOAL_MB = 400;
const DATABASE_URL =
  process.env.BLOCKCATCH_TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

interface Measure {
  start: number;
  afterRead?: number;
}

const rssMb = () => Math.round(process.memoryUsage().rss / 1_048_576);

/** In a child: one of the steps, answering its figures over IPC. */
async function child(step: string, dataDir: string, users: number): Promise<Measure> {
  const { buildGateway } = await import('../src/server.js');
  if (step === 'seed') {
    const gateway = await buildGateway({ port: 0, logLevel: 'silent', dataDir });
    const start = rssMb();
    await gateway.close();
    return { start };
  }
  const postgres = step.startsWith('postgres');
  const config = postgres ? { databaseUrl: DATABASE_URL, databaseSchema: dataDir } : { dataDir };
  if (step.endsWith('fill')) {
    const { gateway } = await startLargeGateway(users, config);
    await gateway.close();
    return { start: rssMb() };
  }
  const gateway = await buildGateway({ port: 0, logLevel: 'silent', seed: false, ...config });
  await gateway.app.listen({ host: '127.0.0.1', port: 0 });
  const address = gateway.app.server.address();
  const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  const start = rssMb();
  const { generateStaff } = await import('../../../fixtures/generate-data.js');
  const admin = generateStaff()[1]!;
  const token = await signIn(url, gateway.config.clientId, admin.phoneNumber, admin.password);
  const answer = await request(`${url}/api/flex/v1/all-users-table`, {
    headers: { authorization: token },
  });
  await answer.body.dump();
  if (answer.statusCode !== 200) throw new Error(`users table answered ${answer.statusCode}`);
  const afterRead = rssMb();
  if (postgres) await gateway.db.query(`DROP SCHEMA "${dataDir}" CASCADE`);
  await gateway.close();
  return { start, afterRead };
}

function inChild(step: string, dataDir: string, users: number): Promise<Measure> {
  return new Promise((resolve, reject) => {
    const process_ = fork(
      fileURLToPath(import.meta.url),
      ['--step', step, dataDir, String(users)],
      {
        execArgv: ['--import', 'tsx', '--conditions=source'],
        stdio: 'inherit',
      },
    );
    process_.once('message', (message) => resolve(message as Measure));
    process_.once('exit', (code) => {
      if (code !== 0) reject(new Error(`the ${step} step exited with ${code}`));
    });
  });
}

export async function benchPgliteMemory(): Promise<string[]> {
  const users = Number(process.env.BENCH_MEMORY_USERS ?? 100_000);
  const count = users.toLocaleString('en-US');
  const folder = await mkdtemp(join(tmpdir(), 'blockcatch-memory-'));
  const verdict = (mb: number) => (mb < GOAL_MB ? 'met' : 'MISSED');
  try {
    const seed = await inChild('seed', join(folder, 'seed'), users);
    const seedLoad = loadavg()[0]!.toFixed(2);
    await inChild('pglite-fill', join(folder, 'large'), users);
    const large = await inChild('pglite-read', join(folder, 'large'), users);
    const largeLoad = loadavg()[0]!.toFixed(2);
    const schema = `bench_memory_${process.pid}`;
    await inChild('postgres-fill', schema, users);
    const floor = await inChild('postgres-read', schema, users);
    return [
      `gateway RSS on PGlite (goal < ${GOAL_MB} MB), each in a process of its own:`,
      `  first start with the default seed: ${seed.start} MB (${verdict(seed.start)}; load ${seedLoad})`,
      `  start on ${count} users: ${large.start} MB (${verdict(large.start)}); after one users-table read: ${large.afterRead} MB (${verdict(large.afterRead!)}; load ${largeLoad})`,
      `  floor, the gateway on PostgreSQL with the same ${count} users: ${floor.start} MB at start, ${floor.afterRead} MB after the read`,
    ];
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

const stepAt = process.argv.indexOf('--step');
if (stepAt >= 0) {
  const [step, dataDir, users] = process.argv.slice(stepAt + 1);
  child(step!, dataDir!, Number(users)).then(
    (measure) => {
      // Run by hand (one step alone), the figures go to stdout.
      if (process.send) process.send(measure, () => process.exit(0));
      else console.log(JSON.stringify(measure));
    },
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
} else if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  benchPgliteMemory().then(
    (lines) => {
      for (const line of lines) console.log(line);
    },
    (error: unknown) => {
      console.error(error);
      process.exitCode = 1;
    },
  );
}
