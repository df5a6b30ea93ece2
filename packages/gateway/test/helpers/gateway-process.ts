// A real gateway process (`main.ts`, as `npm start` runs it) on PostgreSQL, for the tests that
// signal, restart or cut the database under it: its output, its exit, and how long a stop took.
import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { POSTGRES_URL } from './database.js';

const MAIN = fileURLToPath(new URL('../../src/main.ts', import.meta.url));
const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));

/** The issuer every process of a test deployment shares, so a token one signs works on all. */
export const PUBLIC_URL = 'https://api.blockcatch.test';

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface GatewayProcess {
  child: ChildProcess;
  url: string;
  port: number;
  /** Everything it wrote to stdout and stderr so far. */
  output(): string;
  exited: Promise<Exit>;
  /** Sends `signal` and waits for the exit; `ms` is from the signal to the exit. */
  stop(signal?: NodeJS.Signals): Promise<Exit & { ms: number }>;
}

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  return typeof address === 'object' && address ? address.port : 0;
}

/**
 * Starts `main.ts` on `port` (a free one when unset) with the database schema and any further
 * settings in `env`; resolves once the banner is out, fails if the process exits first.
 */
export async function startGatewayProcess(options: {
  schema: string;
  port?: number;
  databaseUrl?: string;
  env?: Record<string, string>;
}): Promise<GatewayProcess> {
  const port = options.port ?? (await freePort());
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATABASE_URL: options.databaseUrl ?? POSTGRES_URL,
    BLOCKCATCH_DATABASE_SCHEMA: options.schema,
    BLOCKCATCH_PUBLIC_URL: PUBLIC_URL,
    BLOCKCATCH_PLATFORM_KEY: '11'.repeat(32),
    BLOCKCATCH_LOG_LEVEL: 'warn',
    BLOCKCATCH_QUIET_HOURS: 'off',
    BLOCKCATCH_MARKETING_CONSENT: 'off',
    BLOCKCATCH_MARKETING_WEEKLY_CAP: '0',
    BLOCKCATCH_ALERT_SWEEP_MS: '0',
    // The test balancer checks readiness every 200 ms: two seconds of drain leave it ten checks,
    // where the default five seconds made each stop wait for nothing.
    BLOCKCATCH_SHUTDOWN_DRAIN_MS: '2000',
    ...options.env,
  };
  delete env.BLOCKCATCH_PORT;
  const child = spawn(
    process.execPath,
    ['--conditions=source', '--import', 'tsx', MAIN, '--port', String(port), '--no-seed'],
    { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  child.stdout?.on('data', (chunk) => {
    output += chunk;
  });
  child.stderr?.on('data', (chunk) => {
    output += chunk;
  });
  const exited = new Promise<Exit>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  // The banner's last line says it is up; an exit before it fails at once.
  await new Promise<void>((resolve, reject) => {
    const check = () => {
      if (output.includes('Sent messages')) resolve();
    };
    child.stdout?.on('data', check);
    void exited.then(({ code }) => reject(new Error(`gateway exited ${code}: ${output}`)));
    check();
  });
  return {
    child,
    url: `http://127.0.0.1:${port}`,
    port,
    output: () => output,
    exited,
    async stop(signal = 'SIGTERM') {
      const started = performance.now();
      child.kill(signal);
      const exit = await exited;
      return { ...exit, ms: Math.round(performance.now() - started) };
    },
  };
}
