// @ts-check
// The embedded database's own thread: one PGlite, driven by the gateway's HTTP thread over a
// small message protocol (see pglite-thread.ts, the other end, and docs/architecture.md).
//
// Plain JavaScript on purpose: a worker thread is started from a file, and this one must run as it
// is both from the TypeScript sources (tests) and from dist (the build copies it beside the bundle).
//
// Requests: { id, type: 'query', sql, params, tx?, long? } | { id, type: 'begin' }
//         | { id, type: 'end', tx, commit } | { id, type: 'close' }
// Answers:  { id, ok: true, value } | { id, ok: false, error: { message, props } }.
// The first answer (id 0) says whether PGlite opened.
//
// PGlite runs one query at a time. Calls outside a transaction wait here in two lanes and run one
// after another: a long read (`long: true`: a page of a whole table, an export, a sweep's batch)
// starts when no short call waits, or after short ones have run for 200 ms in a row, so a short
// query waits for at most the one long read under way, not for every long read asked before it,
// and long reads are never starved. A transaction holds the line from its `begin` to its `end`;
// the queries inside it go straight to it (its first may arrive before it has begun, and waits).
import { fork } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';

/**
 * What PGlite runs with, to keep the process small (docs/operations.md, "Memory on PGlite"). Its
 * WebAssembly memory starts at 128 MB (the least the module accepts) and never shrinks, so what
 * bounds it is PostgreSQL's own use: a small buffer cache (the data folder's pages stay in the
 * operating system's file cache, outside the process) and modest sort and maintenance memory.
 */
const SETTINGS = [
  'shared_buffers=16MB',
  'work_mem=4MB',
  'maintenance_work_mem=16MB',
  'temp_buffers=1MB',
  'wal_buffers=1MB',
];
const startParams = [
  ...PGlite.defaultStartParams,
  ...SETTINGS.flatMap((setting) => ['-c', setting]),
];

/**
 * Creating a database (initdb) grows PGlite's memory by about 500 MB that is never given back, so a
 * new data folder is created by a short-lived process of its own, and this thread only opens it.
 * @param {string} dataDir
 */
async function createDataFolder(dataDir) {
  if (existsSync(join(dataDir, 'PG_VERSION'))) return;
  const creator = fork(fileURLToPath(import.meta.url), [CREATE_FLAG, dataDir], {
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  const code = await new Promise((resolve, reject) => {
    creator.once('exit', resolve);
    creator.once('error', reject);
  });
  if (code !== 0) throw new Error(`Creating the database in ${dataDir} failed (exit ${code}).`);
}

const CREATE_FLAG = '--create-pglite-data-folder';
const creating = process.argv.indexOf(CREATE_FLAG);
if (creating >= 0) {
  const created = await PGlite.create(process.argv[creating + 1], { startParams });
  await created.close();
  process.exit(0);
}

const port = /** @type {import('node:worker_threads').MessagePort} */ (parentPort);

/**
 * An error as plain data: structured cloning drops an Error's own fields (PostgreSQL's `code`,
 * `constraint`, `detail`…), and callers branch on them.
 * @param {unknown} error
 */
function describe(error) {
  if (!(error instanceof Error)) return { message: String(error), props: {} };
  /** @type {Record<string, unknown>} */
  const props = {};
  for (const [key, value] of Object.entries(error)) {
    if (value === undefined || typeof value === 'function') continue;
    // The query and its parameters stay behind: they may quote secrets, and the caller has them.
    if (key === 'query' || key === 'params' || key === 'queryOptions') continue;
    props[key] = value;
  }
  return { message: error.message, props };
}

/**
 * @param {number} id
 * @param {() => Promise<unknown>} run
 * @returns {Promise<void>} settled once the answer is sent
 */
function answer(id, run) {
  return run().then(
    (value) => port.postMessage({ id, ok: true, value }),
    (error) => port.postMessage({ id, ok: false, error: describe(error) }),
  );
}

/** Calls waiting for PGlite, short ones first; each resolves once PGlite is free again. */
const lanes = {
  /** @type {(() => Promise<void>)[]} */ short: [],
  /** @type {(() => Promise<void>)[]} */ long: [],
};
let running = false;

/**
 * @param {'short' | 'long'} lane
 * @param {() => Promise<void>} run
 */
function enqueue(lane, run) {
  lanes[lane].push(run);
  if (!running) void next();
}

/**
 * While a long read waits, short calls keep the database for this long in a row before it gets its
 * turn: it is never starved, and it takes at most about a fifth of the time while requests wait.
 * Counted in time, not calls: a long read costs tens of milliseconds and a short call one, so a
 * long turn every 16 calls had left requests less than half the database and let their queue grow.
 */
const SHORT_TURN_MS = 200;
/** @type {number | null} when the short calls' current run began, while a long read waits */
let shortRunSince = null;

async function next() {
  running = true;
  for (;;) {
    if (!lanes.long.length) shortRunSince = null;
    else shortRunSince ??= performance.now();
    const longTurn =
      lanes.long.length > 0 &&
      (!lanes.short.length ||
        performance.now() - /** @type {number} */ (shortRunSince) >= SHORT_TURN_MS);
    const run = longTurn ? lanes.long.shift() : lanes.short.shift();
    if (!run) break;
    if (longTurn) shortRunSince = null;
    await run();
  }
  running = false;
}

/**
 * A query shaped like a large answer's pages (users-page-text.ts: columns joined row by row, numbers
 * and flags written as text, rows joined), on rows of its own. WebAssembly runs each function in
 * baseline code until it has run a while, so the first large read after a start took about 40%
 * longer than the ones after it. Run once, as a long read (so it waits for every short call), it
 * has those functions optimized in about 50 ms before anyone asks.
 */
const WARM_UP_SQL = `SELECT length(string_agg(concat_ws(E'\\x1f', (g % 4)::text, 'Driver ' || g::text,
    '+1555' || lpad(g::text, 7, '0'), NULLIF('R' || (g % 7)::text, 'R0'), g % 2 = 0, g % 3 = 0,
    g::bigint * 86400000, NULLIF(g::bigint * 3600000, 0), 'start'), E'\\x1e' ORDER BY g))
  FROM generate_series(1, 20000) g`;

async function warmUp() {
  try {
    await lite.query(WARM_UP_SQL);
  } catch {
    // Only a speed-up: a database closing meanwhile, or any other failure, changes nothing.
  }
}

/**
 * A transaction that has begun: PGlite's handle, what ends it (true commits), and its outcome.
 * @typedef {{ tx: import('@electric-sql/pglite').Transaction, finish: (commit: boolean) => void, settled: Promise<void> }} OpenTransaction
 */

/**
 * Transactions by id, from their `begin` to their `end`: each resolves once the transaction has
 * begun (it then holds PGlite, its mutex, until its `end`), or fails with the begin's error. The
 * HTTP thread sends a transaction's first query without waiting for the begin's answer, so that
 * query can arrive while the begin still waits its turn; it waits here for the begin instead.
 * @type {Map<number, Promise<OpenTransaction>>}
 */
const transactions = new Map();
const ROLLBACK = Symbol('rollback');

/** @type {PGlite} */
let lite;
try {
  if (workerData.dataDir) await createDataFolder(workerData.dataDir);
  // Compiled and read once by the process (pglite-thread.ts), not again by every thread.
  const shared = {
    pgliteWasmModule: workerData.wasmModule,
    fsBundle: new Blob([workerData.fsBundle]),
  };
  lite = workerData.template
    ? await PGlite.create({ loadDataDir: new Blob([workerData.template]), startParams, ...shared })
    : await PGlite.create(workerData.dataDir, { startParams, ...shared });
  port.postMessage({ id: 0, ok: true });
  if (workerData.warmUp) enqueue('long', warmUp);
} catch (error) {
  port.postMessage({ id: 0, ok: false, error: describe(error) });
  port.close();
  throw error;
}

/**
 * Registers the transaction `id` at once (calls for it can follow its begin without waiting for
 * the answer) and begins it in its turn; the answer says it has begun, or why it failed.
 * @param {number} id
 */
function begin(id) {
  /** @type {(open: OpenTransaction) => void} */
  let begun = () => {};
  /** @type {(error: unknown) => void} */
  let failed = () => {};
  const ready = new Promise((resolve, reject) => {
    begun = resolve;
    failed = reject;
  });
  // Its failure is answered to the begin, and to each call that waits for it.
  ready.catch(() => {});
  transactions.set(id, ready);
  enqueue('short', () => {
    /** @type {(commit: boolean) => void} */
    let finish = () => {};
    const decided = new Promise((resolve) => {
      finish = resolve;
    });
    let entered = false;
    const settled = lite.transaction(async (tx) => {
      entered = true;
      begun({ tx, finish, settled });
      port.postMessage({ id, ok: true, value: id });
      // A thrown value makes PGlite roll back; resolving commits.
      if (!(await decided)) throw ROLLBACK;
    });
    return settled.then(
      () => {},
      (error) => {
        if (entered) return;
        failed(error);
        port.postMessage({ id, ok: false, error: describe(error) });
      },
    );
  });
}

/** The transaction `id` once it has begun; fails if it has ended, or if its begin failed. */
async function opened(/** @type {number} */ id) {
  const ready = transactions.get(id);
  if (!ready) throw new Error('The transaction has already ended.');
  return ready;
}

port.on('message', (/** @type {any} */ request) => {
  const { id } = request;
  switch (request.type) {
    case 'query':
      if (request.tx === undefined) {
        enqueue(request.long ? 'long' : 'short', () =>
          answer(id, async () => (await lite.query(request.sql, request.params)).rows),
        );
        break;
      }
      answer(id, async () => {
        const open = await opened(request.tx);
        return (await open.tx.query(request.sql, request.params)).rows;
      });
      break;
    case 'begin':
      begin(id);
      break;
    case 'end':
      answer(id, async () => {
        const ready = opened(request.tx);
        transactions.delete(request.tx);
        const open = await ready;
        open.finish(request.commit);
        await open.settled.catch((/** @type {unknown} */ error) => {
          if (error !== ROLLBACK) throw error;
        });
      });
      break;
    case 'close':
      // After every call already waiting.
      enqueue('long', () =>
        answer(id, async () => {
          await lite.close();
          // Nothing else keeps this thread alive: it ends once the answer is sent.
          setImmediate(() => port.close());
        }),
      );
      break;
    default:
      port.postMessage({
        id,
        ok: false,
        error: describe(new Error(`Unknown request ${request.type}`)),
      });
  }
});
