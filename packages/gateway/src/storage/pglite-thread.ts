// The HTTP thread's end of the embedded database: PGlite runs in a worker thread
// (pglite-worker.js) so its queries never block the event loop that accepts connections and
// answers requests. Each call is one message and one answer; a transaction holds the worker's
// PGlite for its whole duration, and other calls wait their turn behind it, as they would in-thread.
//
// @electric-sql/pglite/worker is not used: it is built for browsers (Web Workers, BroadcastChannel,
// navigator.locks for leader election between tabs), which Node 20 does not provide.
import { Worker } from 'node:worker_threads';
import type { Queryable } from './db.js';

interface Answer {
  id: number;
  ok: boolean;
  value?: unknown;
  error?: { message: string; props: Record<string, unknown> };
}

type Request =
  | { type: 'query'; sql: string; params?: unknown[] | undefined; tx?: number }
  | { type: 'begin' }
  | { type: 'end'; tx: number; commit: boolean }
  | { type: 'close' };

export interface PgliteThread extends Queryable {
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/** The worker's file: beside this module in the sources, beside the bundle in dist. */
const WORKER_URL = new URL('./pglite-worker.js', import.meta.url);

/** `template`: a migrated database's `dumpDataDir()` to start from instead of an empty one. */
export async function startPgliteThread(
  dataDir: string | undefined,
  template?: Uint8Array<ArrayBuffer>,
): Promise<PgliteThread> {
  const worker = new Worker(WORKER_URL, { workerData: { dataDir, template } });
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  const waiting = new Map<number, { resolve(value: unknown): void; reject(error: Error): void }>();
  let nextId = 1;
  let stopped: Error | null = null;

  // A worker keeps the process alive only while an answer is awaited, like a socket with a request
  // in flight: an idle embedded database never holds a process open.
  const settle = (answer: Answer) => {
    const call = waiting.get(answer.id);
    if (!call) return;
    waiting.delete(answer.id);
    if (waiting.size === 0) worker.unref();
    if (answer.ok) call.resolve(answer.value);
    else call.reject(toError(answer.error!));
  };
  const stop = (error: Error) => {
    stopped ??= error;
    for (const call of waiting.values()) call.reject(stopped);
    waiting.clear();
  };
  worker.on('message', settle);
  worker.on('error', (error) => stop(error));
  worker.on('exit', (code) =>
    stop(new Error(`The embedded database's thread stopped (exit code ${code}).`)),
  );

  const expect = (id: number) =>
    new Promise<unknown>((resolve, reject) => {
      if (stopped) return reject(stopped);
      if (waiting.size === 0) worker.ref();
      waiting.set(id, { resolve, reject });
    });
  const call = (request: Request) => {
    const id = nextId++;
    const answer = expect(id);
    if (!stopped) worker.postMessage({ id, ...request });
    return answer;
  };

  await expect(0);

  const rows = async <T>(request: Request) => (await call(request)) as T[];
  return {
    query: <T>(sql: string, params?: unknown[]) => rows<T>({ type: 'query', sql, params }),
    async transaction(fn) {
      const tx = (await call({ type: 'begin' })) as number;
      let result: Awaited<ReturnType<typeof fn>>;
      try {
        result = await fn({
          query: <T>(sql: string, params?: unknown[]) =>
            rows<T>({ type: 'query', sql, params, tx }),
        });
      } catch (error) {
        await call({ type: 'end', tx, commit: false }).catch(() => {});
        throw error;
      }
      await call({ type: 'end', tx, commit: true });
      return result;
    },
    async close() {
      if (!stopped) await call({ type: 'close' });
      // Held open until the thread has ended, so a caller awaiting close() sees it through.
      worker.ref();
      await exited;
    },
  };
}

/** The worker's error rebuilt on this thread: its message and fields (`code`, `constraint`…). */
function toError(described: { message: string; props: Record<string, unknown> }): Error {
  const error = new Error(described.message);
  const { stack: _workerStack, ...props } = described.props;
  return Object.assign(error, props);
}
