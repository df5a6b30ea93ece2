// Which batches of a bulk send the gateway has acknowledged, so an interrupted run can resume
// without sending anyone twice. The memory journal lives here; the file journal is Node-only.
import type { SendResult } from '../core/schemas/index.js';

export interface Journal {
  /** The indexes of the batches of send `key` already acknowledged. */
  load(key: string): Promise<Set<number>>;
  /** Records that batch `batchIndex` of send `key` was acknowledged with `result`. */
  ack(key: string, batchIndex: number, result: SendResult): Promise<void>;
}

export type MemoryJournal = Journal & {
  /** What was recorded for one send, by batch index. */
  entries(key: string): ReadonlyMap<number, SendResult>;
};

export function createMemoryJournal(): MemoryJournal {
  const sends = new Map<string, Map<number, SendResult>>();
  return {
    async load(key) {
      return new Set(sends.get(key)?.keys());
    },
    async ack(key, batchIndex, result) {
      let batches = sends.get(key);
      if (!batches) {
        batches = new Map();
        sends.set(key, batches);
      }
      batches.set(batchIndex, result);
    },
    entries: (key) => sends.get(key) ?? new Map(),
  };
}
