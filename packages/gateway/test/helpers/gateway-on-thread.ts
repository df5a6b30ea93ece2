// The whole gateway (startGateway) on an embedded database whose thread the test holds: to end the
// thread under a request, or to keep requests waiting on the database while the gateway closes.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { GatewayConfigInput } from '../../src/config.js';
import { threadDb } from '../../src/storage/db.js';
import { type PgliteThread, startPgliteThread } from '../../src/storage/pglite-thread.js';
import { type RunningGateway, startGateway } from './gateway.js';
import { holdTransaction } from './hold-transaction.js';

export interface GatewayOnThread {
  running: RunningGateway;
  thread: PgliteThread;
  /**
   * Takes the database's one connection in a transaction and keeps it, so every query waits;
   * resolves once it is taken, to the function that lets it go and resolves as the transaction
   * ends: to nothing, or to the error it failed with (its thread was ended under it).
   */
  hold(): Promise<() => Promise<Error | undefined>>;
  /** Closes the gateway and the thread, and removes the data folder. */
  close(): Promise<void>;
}

/** A new on-disk data folder runs initdb and every migration: allow tens of seconds for it. */
export async function startGatewayOnThread(
  name: string,
  config: Partial<GatewayConfigInput> = {},
): Promise<GatewayOnThread> {
  const dataDir = await mkdtemp(join(tmpdir(), `blockcatch-${name}-`));
  const thread = await startPgliteThread(join(dataDir, 'data'));
  const running = await startGateway(config, { db: threadDb(thread) });
  return {
    running,
    thread,
    hold: () => holdTransaction(thread),
    async close() {
      await running.gateway.close();
      await thread.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
