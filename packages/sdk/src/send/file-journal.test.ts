// The file journal: survives a new process and a torn last line.
import { appendFileSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFileJournal } from './file-journal.js';

describe('createFileJournal', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'bc-journal-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('remembers acknowledged batches per key across instances, in a 0600 file', async () => {
    const path = join(dir, 'sends.jsonl');
    await createFileJournal(path).ack('a', 0, { queued: 3 });
    await createFileJournal(path).ack('a', 2, { queued: 3 });
    await createFileJournal(path).ack('b', 1, { queued: 3 });
    expect([...(await createFileJournal(path).load('a'))].sort()).toEqual([0, 2]);
    expect(statSync(path).mode & 0o777).toBe(0o600);
  });

  it('ignores a line torn by a crash and keeps appending after it', async () => {
    const path = join(dir, 'sends.jsonl');
    const journal = createFileJournal(path);
    await journal.ack('a', 0, {});
    appendFileSync(path, '{"key":"a","batch":1,"res');
    await journal.ack('a', 2, {});
    expect([...(await journal.load('a'))].sort()).toEqual([0, 2]);
  });

  it('answers an empty set when no file exists yet', async () => {
    expect((await createFileJournal(join(dir, 'none.jsonl')).load('a')).size).toBe(0);
  });
});
