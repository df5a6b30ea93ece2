// The HTTP thread's end of the embedded database: PGlite runs in a worker thread
// (pglite-worker.js) so its queries never block the event loop that accepts connections and
// answers requests. Each call is one message and one answer; a transaction holds the worker's
// PGlite for its whole duration, and other calls wait their turn behind it, as they would in-thread.
// Calls wait in two lanes: a long read (`QueryOptions.long`) runs only when no short call waits.
//
// A thread that dies (out of memory, a crash inside PGlite) is started again on the same data
// folder: the calls it held fail with DatabaseUnavailableError (503 to a request), never hang, and
// calls made while it starts fail the same way at once.
//
// @electric-sql/pglite/worker is not used: it is built for browsers (Web Workers, BroadcastChannel,
// navigator.locks for leader election between tabs), which Node 20 does not provide.
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { DatabaseUnavailableError } from './db-availability.js';
import type { Queryable, QueryOptions } from './queryable.js';

interface Answer {
  id: number;
  ok: boolean;
  value?: unknown;
  error?: { message: string; props: Record<string, unknown> };
}

type Request =
  | {
      type: 'query';
      sql: string;
      params?: unknown[] | undefined;
      tx?: number;
      long?: boolean;
    }
  | { type: 'begin' }
  | { type: 'end'; tx: number; commit: boolean }
  | { type: 'close' };

export interface PgliteThread extends Queryable {
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  close(): Promise<void>;
  /**
   * Ends the thread at once, as a crash would (what the restart is tested against); it is started
   * again like after any other death.
   */
  kill(): Promise<void>;
  /** How many times the thread was started again after dying. */
  restarts(): number;
  /** Calls sent to the thread and not answered yet (the one running and those waiting). */
  unanswered(): number;
}

/** The worker's file: beside this module in the sources, beside the bundle in dist. */
const WORKER_URL = new URL('./pglite-worker.js', import.meta.url);

/** PGlite's compiled WebAssembly and its file-system bundle, as the worker hands them to PGlite. */
interface PgliteArtifacts {
  wasmModule: WebAssembly.Module;
  fsBundle: ArrayBuffer;
}

let artifacts: Promise<PgliteArtifacts> | undefined;
/** Whether a thread of this process was asked to warm the shared module up (pglite-worker.js). */
let warmUpAsked = false;

/** Node's WebAssembly object: TypeScript declares it as a value only in the DOM library. */
const wasmGlobal = () =>
  (
    globalThis as unknown as {
      WebAssembly: { compile(bytes: Uint8Array): Promise<WebAssembly.Module> };
    }
  ).WebAssembly;

/**
 * Compiled and read once per process: a thread left to itself compiles PGlite's 9 MB of
 * WebAssembly again (about 0.4 s of CPU), and a process starts one per in-memory database and one
 * after every restart. A compiled module is shared with a worker, not copied.
 */
function pgliteArtifacts(): Promise<PgliteArtifacts> {
  artifacts ??= (async () => {
    const dist = dirname(createRequire(import.meta.url).resolve('@electric-sql/pglite'));
    const [wasm, bundle] = await Promise.all([
      readFile(join(dist, 'pglite.wasm')),
      readFile(join(dist, 'pglite.data')),
    ]);
    const fsBundle = bundle.buffer.slice(bundle.byteOffset, bundle.byteOffset + bundle.byteLength);
    return { wasmModule: await wasmGlobal().compile(wasm), fsBundle };
  })();
  // A failed read is tried again by the next thread rather than remembered.
  artifacts.catch(() => {
    artifacts = undefined;
  });
  return artifacts;
}

/** Waits between restarts when a new thread dies at once, so a broken data folder does not spin. */
const RESTART_DELAYS_MS = [0, 250, 1000, 5000];

interface Thread {
  worker: Worker;
  waiting: Map<number, { resolve(value: unknown): void; reject(error: Error): void }>;
  /** Set once the thread can take no more calls. */
  stopped: Error | null;
  exited: Promise<void>;
}

/** `template`: a migrated database's `dumpDataDir()` to start from instead of an empty one. */
export async function startPgliteThread(
  dataDir: string | undefined,
  template?: Uint8Array<ArrayBuffer>,
): Promise<PgliteThread> {
  let nextId = 1;
  let closing = false;
  let restarts = 0;
  let failedStarts = 0;
  let current: Thread | null = null;
  /** True while a dead thread's successor is starting: calls fail at once meanwhile. */
  let restarting = false;

  const { wasmModule, fsBundle } = await pgliteArtifacts();
  const spawn = (): Thread => {
    // The module's optimized code is the process's, shared by its threads: one warm-up is enough.
    const warmUp = !warmUpAsked;
    warmUpAsked = true;
    const worker = new Worker(WORKER_URL, {
      workerData: { dataDir, template, wasmModule, fsBundle, warmUp },
    });
    const thread: Thread = {
      worker,
      waiting: new Map(),
      stopped: null,
      exited: new Promise<void>((resolve) => worker.once('exit', () => resolve())),
    };
    // A worker keeps the process alive only while an answer is awaited, like a socket with a
    // request in flight: an idle embedded database never holds a process open.
    worker.on('message', (answer: Answer) => {
      const call = thread.waiting.get(answer.id);
      if (!call) return;
      thread.waiting.delete(answer.id);
      if (thread.waiting.size === 0) worker.unref();
      if (answer.ok) call.resolve(answer.value);
      else call.reject(toError(answer.error!));
    });
    const stop = (error: Error) => {
      thread.stopped ??= error;
      for (const call of thread.waiting.values()) call.reject(thread.stopped);
      thread.waiting.clear();
    };
    worker.on('error', () =>
      stop(new DatabaseUnavailableError("The embedded database's thread failed; it restarts.")),
    );
    worker.on('exit', (code) => {
      stop(
        new DatabaseUnavailableError(
          `The embedded database's thread stopped (exit code ${code}); it restarts.`,
        ),
      );
      if (!closing && !restarting && current === thread) void restart();
    });
    return thread;
  };

  const expect = (thread: Thread, id: number) =>
    new Promise<unknown>((resolve, reject) => {
      if (thread.stopped) return reject(thread.stopped);
      if (thread.waiting.size === 0) thread.worker.ref();
      thread.waiting.set(id, { resolve, reject });
    });

  /** Starts a thread and waits for PGlite to open in it (the answer with id 0). */
  const open = async (): Promise<Thread> => {
    const thread = spawn();
    await expect(thread, 0);
    return thread;
  };

  current = await open();

  const restart = async () => {
    restarting = true;
    while (!closing) {
      const delay = RESTART_DELAYS_MS[Math.min(failedStarts, RESTART_DELAYS_MS.length - 1)]!;
      if (delay > 0) await new Promise((resolve) => setTimeout(resolve, delay).unref());
      if (closing) break;
      try {
        const thread = spawn();
        current = thread;
        await expect(thread, 0);
        restarts++;
        failedStarts = 0;
        break;
      } catch {
        failedStarts++;
      }
    }
    restarting = false;
  };

  /** Sends a call; returns its id (the thread's name for a transaction it begins) and its answer. */
  const send = (request: Request) => {
    const thread = current!;
    if (restarting) {
      return {
        id: -1,
        answer: Promise.reject(
          new DatabaseUnavailableError("The embedded database's thread is restarting."),
        ),
      };
    }
    const id = nextId++;
    const answer = expect(thread, id);
    if (!thread.stopped) thread.worker.postMessage({ id, ...request });
    return { id, answer };
  };
  const call = (request: Request) => send(request).answer;

  const rows = async <T>(request: Request) => (await call(request)) as T[];
  return {
    query: <T>(sql: string, params?: unknown[], options?: QueryOptions) =>
      rows<T>({
        type: 'query',
        sql,
        params,
        ...(options?.long ? { long: true } : {}),
      }),
    async transaction(fn) {
      const thread = current!;
      // The first query follows the begin at once, without waiting for its answer: the thread
      // keeps it until the transaction has begun. Waiting would hold PGlite, already taken by the
      // transaction, idle for as long as this thread takes to read the answer, and a busy HTTP
      // thread takes tens of milliseconds. A failed begin fails the calls made inside it instead.
      const begun = send({ type: 'begin' });
      begun.answer.catch(() => {});
      const tx = begun.id;
      if (tx < 0) await begun.answer;
      // A restart in between ends the transaction with its thread: its calls must not reach the
      // new one, where the id means nothing.
      const inside = (request: Request) =>
        current === thread
          ? call(request)
          : Promise.reject(new DatabaseUnavailableError('The transaction ended with its thread.'));
      let result: Awaited<ReturnType<typeof fn>>;
      try {
        result = await fn({
          query: async <T>(sql: string, params?: unknown[]) =>
            (await inside({ type: 'query', sql, params, tx })) as T[],
        });
      } catch (error) {
        await inside({ type: 'end', tx, commit: false }).catch(() => {});
        throw error;
      }
      await inside({ type: 'end', tx, commit: true });
      return result;
    },
    async close() {
      closing = true;
      const thread = current!;
      // A thread still starting has written nothing yet: it is ended rather than asked to close.
      if (restarting) await thread.worker.terminate();
      else if (!thread.stopped) await call({ type: 'close' }).catch(() => {});
      // Held open until the thread has ended, so a caller awaiting close() sees it through.
      thread.worker.ref();
      await thread.exited;
    },
    async kill() {
      const thread = current!;
      await thread.worker.terminate();
      await thread.exited;
    },
    restarts: () => restarts,
    unanswered: () => current?.waiting.size ?? 0,
  };
}

/** The worker's error rebuilt on this thread: its message and fields (`code`, `constraint`…). */
function toError(described: { message: string; props: Record<string, unknown> }): Error {
  const error = new Error(described.message);
  const { stack: _workerStack, ...props } = described.props;
  return Object.assign(error, props);
}
