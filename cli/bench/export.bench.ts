// `blockcatch users export --csv` of 250,000 Flex users from the sandbox: rows per second and the
// CLI process's peak RSS (the CSV is streamed, so it must stay under 600 MB), beside csv-stringify
// writing the same rows alone; and the cold start of `blockcatch --help` (median of 10, < 300 ms).
// Run: npm run bench --workspace @blockcatch/cli (builds nothing: run npm run build first).
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';
import { createAuth, createGatewayClient, localTimeZone } from '@blockcatch/sdk';
import { stringify } from 'csv-stringify';
import { startLargeGateway } from '../../packages/gateway/bench/large-gateway.js';
import { COLUMN_KEYS, exportRow } from '../src/output/columns.js';

const USERS = Number(process.env.BENCH_USERS ?? 250_000);
const RSS_LIMIT_MB = 600;
const HELP_LIMIT_MS = 300;
const CLI = fileURLToPath(new URL('../dist/main.js', import.meta.url));

const mb = (bytes: number) => bytes / 1_048_576;

/** Peak resident set of a running process, in bytes (Linux: VmHWM), or null where unreadable. */
function peakRss(pid: number): number | null {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = /VmHWM:\s+(\d+) kB/.exec(status)?.[1];
    return kb ? Number(kb) * 1024 : null;
  } catch {
    return null;
  }
}

/** Runs the CLI, counting stdout bytes and lines, sampling its peak RSS until it exits. */
function runExport(env: NodeJS.ProcessEnv) {
  return new Promise<{ ms: number; lines: number; bytes: number; peak: number | null }>(
    (resolve, reject) => {
      const started = performance.now();
      const child = spawn(
        process.execPath,
        [CLI, 'users', 'export', '--product', 'flex', '--csv'],
        {
          env,
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      );
      let lines = 0;
      let bytes = 0;
      let peak: number | null = null;
      let stderr = '';
      const sample = setInterval(() => {
        const now = child.pid ? peakRss(child.pid) : null;
        if (now !== null) peak = Math.max(peak ?? 0, now);
      }, 20);
      child.stdout.on('data', (chunk: Buffer) => {
        bytes += chunk.length;
        for (let i = 0; i < chunk.length; i++) if (chunk[i] === 10) lines++;
        // The last reading before exit is the truest peak.
        const now = child.pid ? peakRss(child.pid) : null;
        if (now !== null) peak = Math.max(peak ?? 0, now);
      });
      child.stderr.on('data', (d: Buffer) => {
        stderr += d.toString();
      });
      child.on('error', reject);
      child.on('close', (code) => {
        clearInterval(sample);
        if (code !== 0) reject(new Error(`export exited ${code}: ${stderr}`));
        else resolve({ ms: performance.now() - started, lines, bytes, peak });
      });
    },
  );
}

function signInWithCli(env: NodeJS.ProcessEnv): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, 'login'], {
      env,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => {
      stderr += d.toString();
    });
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0 ? resolve() : reject(new Error(`login failed: ${stderr}`)),
    );
  });
}

async function stringifyAlone(rows: Record<string, string>[]): Promise<number> {
  const sink = new Writable({
    write(_chunk, _encoding, done) {
      done();
    },
  });
  const stringifier = stringify({ header: true, columns: [...COLUMN_KEYS] });
  const started = performance.now();
  const done = pipeline(stringifier, sink);
  for (const row of rows) {
    if (!stringifier.write(row)) await new Promise<void>((r) => stringifier.once('drain', r));
  }
  stringifier.end();
  await done;
  return performance.now() - started;
}

function coldHelp(): number[] {
  const times: number[] = [];
  for (let i = 0; i < 10; i++) {
    const started = performance.now();
    const run = spawnSync(process.execPath, [CLI, '--help'], { stdio: 'ignore' });
    if (run.status !== 0) throw new Error(`blockcatch --help exited ${run.status}`);
    times.push(performance.now() - started);
  }
  return times.sort((a, b) => a - b);
}

export async function benchExport(): Promise<string[]> {
  const lines: string[] = [];
  const help = coldHelp();
  const median = ((help[4] ?? 0) + (help[5] ?? 0)) / 2;
  lines.push(
    `blockcatch --help cold start: median ${median.toFixed(0)} ms of 10 (min ${help[0]?.toFixed(0)}, max ${help[9]?.toFixed(0)}; limit ${HELP_LIMIT_MS} ms) ${median < HELP_LIMIT_MS ? 'OK' : 'OVER'}`,
  );

  const { gateway, url, admin, insertMs: seedMs } = await startLargeGateway(USERS, { sendRate: 0 });
  try {
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      XDG_CONFIG_HOME: mkdtempSync(join(tmpdir(), 'blockcatch-bench-')),
      BLOCKCATCH_GATEWAY_URL: url,
      BLOCKCATCH_PHONE: admin.phoneNumber,
      BLOCKCATCH_PASSWORD: admin.password,
      NO_COLOR: '1',
    };
    // Not spawnSync: the gateway answering the sign-in runs in this process's event loop.
    await signInWithCli(env);

    // The first export also makes the gateway build its cached table; the second measures the CLI.
    for (const label of ['first, gateway cache cold', 'second, gateway cache warm']) {
      const run = await runExport(env);
      const rows = run.lines - 1;
      const peak = run.peak === null ? 'n/a (no /proc)' : `${mb(run.peak).toFixed(0)} MB`;
      lines.push(
        `users export --csv (${label}), ${rows.toLocaleString('en-US')} rows (seeded in ${(seedMs / 1000).toFixed(1)} s): ${(run.ms / 1000).toFixed(2)} s, ${Math.round(rows / (run.ms / 1000)).toLocaleString('en-US')} rows/s end to end, ${mb(run.bytes).toFixed(1)} MB of CSV, peak RSS ${peak} (limit ${RSS_LIMIT_MB} MB) ${run.peak === null || mb(run.peak) < RSS_LIMIT_MB ? 'OK' : 'OVER'}`,
      );
    }

    // The same rows, written by csv-stringify alone: the floor for the CLI's CSV step.
    const auth = createAuth({
      userPoolId: gateway.config.userPoolId,
      clientId: gateway.config.clientId,
      endpoint: `${url}/`,
      logger: { warn: () => {} },
    });
    await auth.signIn(admin.phoneNumber, admin.password);
    const client = createGatewayClient({ baseUrl: url, auth });
    const started = performance.now();
    const users = await client.flex.users();
    const fetchMs = performance.now() - started;
    auth.dispose();
    const timeZone = localTimeZone();
    const records = users.map((u) => exportRow(u, timeZone));
    const aloneMs = await stringifyAlone(records);
    lines.push(
      `csv-stringify alone, same ${records.length.toLocaleString('en-US')} rows: ${(aloneMs / 1000).toFixed(2)} s, ${Math.round(records.length / (aloneMs / 1000)).toLocaleString('en-US')} rows/s (the table fetch and parse alone, in process: ${(fetchMs / 1000).toFixed(2)} s)`,
    );
  } finally {
    await gateway.close();
  }
  return lines;
}
