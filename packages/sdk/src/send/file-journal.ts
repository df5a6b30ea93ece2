// A journal in a JSON-lines file, one acknowledged batch per line, appended and fsynced before the
// batch counts as done: a CLI killed mid-send resumes from it. Node only (the `./node` entry).
import { closeSync, fchmodSync, fsyncSync, openSync, readFileSync, writeSync } from 'node:fs';
import type { SendResult } from '../core/schemas/index.js';
import type { Journal } from './journal.js';

interface JournalLine {
  key: string;
  batch: number;
  result: SendResult;
  at: number;
}

export function createFileJournal(path: string): Journal & { readonly path: string } {
  return {
    path,
    async load(key) {
      let text: string;
      try {
        text = readFileSync(path, 'utf8');
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return new Set();
        throw error;
      }
      const done = new Set<number>();
      for (const line of text.split('\n')) {
        if (line.trim() === '') continue;
        let entry: Partial<JournalLine>;
        try {
          entry = JSON.parse(line) as Partial<JournalLine>;
        } catch {
          // A line torn by a crash mid-write: that batch was never acknowledged here.
          continue;
        }
        if (entry.key === key && typeof entry.batch === 'number') done.add(entry.batch);
      }
      return done;
    },
    async ack(key, batchIndex, result) {
      const line: JournalLine = { key, batch: batchIndex, result, at: Date.now() };
      const fd = openSync(path, 'a', 0o600);
      try {
        fchmodSync(fd, 0o600);
        // Start on a fresh line even if the previous writer died mid-line.
        writeSync(fd, `\n${JSON.stringify(line)}\n`);
        fsyncSync(fd);
      } finally {
        closeSync(fd);
      }
    },
  };
}
