// The embedded database's memory: the RSS of the built gateway (dist, in a plain Node process with
// the flags `npm start` gives it) on PGlite in a data folder, each figure from a process of its
// own, beside PostgreSQL's gateway process holding the same data (the floor: there the data lives
// in the server) and the goal (< 400 MB).
//   1. a first start with the default seed;
//   2. a start on a data folder holding 100,000 generated users, and after one users-table read.
// The data is filled from the sources; only the measured processes run the build.
// Run alone, after `npm run build`:
//   npx tsx --conditions=source packages/gateway/bench/pglite-memory.bench.ts
// (BENCH_MEMORY_USERS, default 100,000).
import { fork } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { request } from 'undici';
import { generateStaff } from '../../../fixtures/generate-data.js';
import { signIn } from '../test/helpers/sign-in.js';
import { startLargeGateway } from './large-gateway.js';
import { readToEnd } from './read-to-end.js';

const GOAL_MB = 400;
const DATABASE_URL =
  process.env.BLOCKCATCH_TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const BUILT_GATEWAY = fileURLToPath(new URL('./built-gateway.mjs', import.meta.url));

/**
 * The flags `npm start` gives node, so the bench runs the gateway as it: read from the start scripts
 * of the repository and of the gateway package, which must agree (each starts the same process).
 */
const START_FLAGS = (() => {
  const [root, gateway] = ['../../../package.json', '../package.json'].map((path) => {
    const manifest = JSON.parse(
      readFileSync(fileURLToPath(new URL(path, import.meta.url)), 'utf8'),
    ) as { scripts: { start: string } };
    const command = manifest.scripts.start.split('&&').at(-1)!.trim().split(/\s+/);
    return command.filter((word) => word.startsWith('--')).join(' ');
  });
  if (root !== gateway) {
    throw new Error(
      `npm start gives node "${root}" at the repository's root and "${gateway}" in packages/gateway: make them the same.`,
    );
  }
  return gateway!.split(' ').filter(Boolean);
})();

interface Measure {
  start: number;
  afterRead?: number;
}

type BuiltMessage =
  | { type: 'started'; rss: number; url: string; clientId: string }
  | { type: 'rss'; rss: number }
  | { type: 'closed' };

/**
 * Starts the built gateway with `config` in a process of its own and measures it: its RSS once
 * listening and, with `read`, after one users-table read by the sandbox admin (made from here, so
 * the client's memory is not counted).
 */
async function measureBuilt(
  config: Record<string, unknown>,
  options: { read: boolean; dropSchema?: string },
): Promise<Measure> {
  const child = fork(BUILT_GATEWAY, [JSON.stringify({ port: 0, logLevel: 'silent', ...config })], {
    execArgv: START_FLAGS,
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const messages: BuiltMessage[] = [];
  let wake: () => void = () => {};
  child.on('message', (message) => {
    messages.push(message as BuiltMessage);
    wake();
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  const next = async <T extends BuiltMessage['type']>(type: T) => {
    for (;;) {
      const at = messages.findIndex((m) => m.type === type);
      if (at >= 0) return messages.splice(at, 1)[0] as Extract<BuiltMessage, { type: T }>;
      const code = await Promise.race([
        new Promise<'message'>((resolve) => {
          wake = () => resolve('message');
        }),
        exited,
      ]);
      if (code !== 'message') throw new Error(`the built gateway exited with ${code}`);
    }
  };
  try {
    const started = await next('started');
    let afterRead: number | undefined;
    if (options.read) {
      const admin = generateStaff()[1]!;
      const token = await signIn(started.url, started.clientId, admin.phoneNumber, admin.password);
      const answer = await request(`${started.url}/api/flex/v1/all-users-table`, {
        headers: { authorization: token },
      });
      await readToEnd(answer.body);
      if (answer.statusCode !== 200) throw new Error(`users table answered ${answer.statusCode}`);
      child.send({ type: 'rss' });
      afterRead = (await next('rss')).rss;
    }
    child.send({ type: 'close', dropSchema: options.dropSchema });
    await next('closed');
    return { start: started.rss, ...(afterRead === undefined ? {} : { afterRead }) };
  } finally {
    child.kill();
  }
}

/** In a child: fills a database with generated users from the sources (not measured). */
async function fill(step: string, dataDir: string, users: number): Promise<void> {
  const config = step.startsWith('postgres')
    ? { databaseUrl: DATABASE_URL, databaseSchema: dataDir }
    : { dataDir };
  const { gateway } = await startLargeGateway(users, config);
  await gateway.close();
}

function inChild(step: string, dataDir: string, users: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const process_ = fork(
      fileURLToPath(import.meta.url),
      ['--step', step, dataDir, String(users)],
      {
        execArgv: ['--import', 'tsx', '--conditions=source'],
        stdio: 'inherit',
      },
    );
    process_.once('exit', (code) => {
      if (code === 0) resolve();
      else reject(new Error(`the ${step} step exited with ${code}`));
    });
  });
}

export async function benchPgliteMemory(): Promise<string[]> {
  const users = Number(process.env.BENCH_MEMORY_USERS ?? 100_000);
  const count = users.toLocaleString('en-US');
  const folder = await mkdtemp(join(tmpdir(), 'blockcatch-memory-'));
  const verdict = (mb: number) => (mb < GOAL_MB ? 'met' : 'MISSED');
  try {
    const seed = await measureBuilt({ dataDir: join(folder, 'seed') }, { read: false });
    const seedLoad = loadavg()[0]!.toFixed(2);
    await inChild('pglite-fill', join(folder, 'large'), users);
    const large = await measureBuilt(
      { dataDir: join(folder, 'large'), seed: false },
      { read: true },
    );
    const largeLoad = loadavg()[0]!.toFixed(2);
    const schema = `bench_memory_${process.pid}`;
    await inChild('postgres-fill', schema, users);
    const floor = await measureBuilt(
      { databaseUrl: DATABASE_URL, databaseSchema: schema, seed: false },
      { read: true, dropSchema: schema },
    );
    return [
      `built gateway's RSS on PGlite (goal < ${GOAL_MB} MB), started as npm start starts it (node ${START_FLAGS.join(' ')}), each in a process of its own:`,
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
  fill(step!, dataDir!, Number(users)).then(
    () => process.exit(0),
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
