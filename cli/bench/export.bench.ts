// `blockcatch users export --csv FILE` of 250,000 and of 1,000,000 Flex users, each from a freshly
// started sandbox (no warm cache): wall time and the CLI process's peak RSS (the export streams end
// to end, so it must stay under 150 MB), beside csv-stringify writing the same rows in this process,
// measured in the same run (goal: the whole export within 3x of it); and the cold start of
// `blockcatch --help` (median of 10, < 300 ms). BENCH_USERS=N runs one size only (the million's
// seeding takes about a minute). Each size's line carries the load average it ran under.
// Run: npm run bench --workspace @blockcatch/cli (builds nothing: run npm run build first), or
// alone: cd cli && npx tsx bench/run.ts.
import { spawn, spawnSync } from 'node:child_process';
import { createReadStream, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';
import { usersTablePages } from '@blockcatch/gateway/testing';
import { EXPORT_COLUMNS, exportRow, localTimeZone } from '@blockcatch/sdk';
import { stringify } from 'csv-stringify';
import { startLargeGateway } from '../../packages/gateway/bench/large-gateway.js';

const SIZES = process.env.BENCH_USERS ? [Number(process.env.BENCH_USERS)] : [250_000, 1_000_000];
const RSS_LIMIT_MB = 150;
const RATIO_LIMIT = 3;
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

/** Runs the CLI's export to `file`, sampling its peak RSS until it exits. */
function runExport(env: NodeJS.ProcessEnv, file: string) {
  return new Promise<{ ms: number; peak: number | null }>((resolve, reject) => {
    const started = performance.now();
    const child = spawn(
      process.execPath,
      [CLI, 'users', 'export', '--product', 'flex', '--csv', file],
      { env, stdio: ['ignore', 'ignore', 'pipe'] },
    );
    let peak: number | null = null;
    let stderr = '';
    // VmHWM is the high-water mark itself, so sampling only has to catch the process alive.
    const sample = setInterval(() => {
      const now = child.pid ? peakRss(child.pid) : null;
      if (now !== null) peak = Math.max(peak ?? 0, now);
    }, 20);
    child.stderr.on('data', (d: Buffer) => {
      stderr += d.toString();
    });
    child.on('error', reject);
    child.on('close', (code) => {
      clearInterval(sample);
      if (code !== 0) reject(new Error(`export exited ${code}: ${stderr}`));
      else resolve({ ms: performance.now() - started, peak });
    });
  });
}

/** Lines in a file, read in chunks. */
async function countLines(file: string): Promise<number> {
  let lines = 0;
  for await (const chunk of createReadStream(file) as AsyncIterable<Buffer>) {
    for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) lines++;
  }
  return lines;
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

/**
 * csv-stringify writing the table's rows (as `exportRow` shapes them, formulas escaped as the
 * export does) to a sink that drops them: the floor for the export's CSV step. The rows are read a page at a time so a million of them
 * never sit in memory; only the library's time is counted, not the reading or the shaping.
 */
async function stringifyAlone(
  gateway: Awaited<ReturnType<typeof startLargeGateway>>['gateway'],
  timeZone: string,
): Promise<{ ms: number; rows: number }> {
  const sink = new Writable({
    write(_chunk, _encoding, done) {
      done();
    },
  });
  const stringifier = stringify({
    header: true,
    columns: [...EXPORT_COLUMNS],
    escape_formulas: true,
  });
  const done = pipeline(stringifier, sink);
  let ms = 0;
  let rows = 0;
  for await (const page of usersTablePages(gateway.db, 'flex', 5000)) {
    const records = page.map((user) => exportRow(user, timeZone));
    const started = performance.now();
    for (const record of records) {
      if (!stringifier.write(record)) await new Promise<void>((r) => stringifier.once('drain', r));
    }
    ms += performance.now() - started;
    rows += records.length;
  }
  const started = performance.now();
  stringifier.end();
  await done;
  ms += performance.now() - started;
  return { ms, rows };
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

  for (const size of SIZES) lines.push(...(await benchOneSize(size)));
  return lines;
}

async function benchOneSize(size: number): Promise<string[]> {
  const lines: string[] = [];
  const { gateway, url, admin, insertMs: seedMs } = await startLargeGateway(size, { sendRate: 0 });
  const dir = mkdtempSync(join(tmpdir(), 'blockcatch-bench-'));
  try {
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      XDG_CONFIG_HOME: dir,
      BLOCKCATCH_GATEWAY_URL: url,
      BLOCKCATCH_PHONE: admin.phoneNumber,
      BLOCKCATCH_PASSWORD: admin.password,
      NO_COLOR: '1',
    };
    // Not spawnSync: the gateway answering the sign-in runs in this process's event loop.
    await signInWithCli(env);

    // The gateway was just started and has served no table: this is the cold export.
    const file = join(dir, 'users.csv');
    const run = await runExport(env, file);
    const rows = (await countLines(file)) - 1;
    const bytes = statSync(file).size;
    const alone = await stringifyAlone(gateway, localTimeZone());
    if (alone.rows !== rows)
      throw new Error(`exported ${rows} rows, the table holds ${alone.rows}`);
    const ratio = run.ms / alone.ms;
    const peakMb = run.peak === null ? null : mb(run.peak);
    const met = (ok: boolean) => (ok ? 'met' : 'MISSED');
    const load = loadavg()
      .map((l) => l.toFixed(2))
      .join(', ');
    lines.push(
      `users export --csv FILE, ${rows.toLocaleString('en-US')} rows, ${mb(bytes).toFixed(1)} MB of CSV (seeded in ${(seedMs / 1000).toFixed(1)} s; load average ${load})`,
      `  cold export ${(run.ms / 1000).toFixed(2)} s (${Math.round(rows / (run.ms / 1000)).toLocaleString('en-US')} rows/s); csv-stringify floor ${(alone.ms / 1000).toFixed(2)} s`,
      `  ratio ${ratio.toFixed(2)}x (goal <= ${RATIO_LIMIT}x) ${met(ratio <= RATIO_LIMIT)}`,
      `  CLI peak RSS ${peakMb === null ? 'n/a (no /proc)' : `${peakMb.toFixed(0)} MB`} (goal < ${RSS_LIMIT_MB} MB) ${peakMb === null ? 'n/a' : met(peakMb < RSS_LIMIT_MB)}`,
    );
  } finally {
    await gateway.close();
    rmSync(dir, { recursive: true, force: true });
  }
  return lines;
}
