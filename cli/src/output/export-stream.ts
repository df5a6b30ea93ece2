// `users export --csv`: the gateway filters and streams the CSV; this pipes it to stdout or a file
// as it arrives, so the CLI's memory stays flat however many rows there are. Without a terminal to
// redraw, progress is one line on stderr every few seconds, never one per chunk.
import { createWriteStream } from 'node:fs';
import { Readable, Transform, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { UsersExport } from '@blockcatch/sdk';

export const PROGRESS_EVERY_MS = 3000;

export async function writeExport(
  answer: UsersExport,
  file: string | undefined,
  onProgress: (rows: number) => void,
): Promise<void> {
  let lines = 0;
  const count = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) lines++;
      done(null, chunk);
    },
  });
  // The header is the first line; what follows are rows.
  const timer = setInterval(() => onProgress(Math.max(0, lines - 1)), PROGRESS_EVERY_MS);
  timer.unref();
  const out: Writable = file ? createWriteStream(file) : process.stdout;
  try {
    await pipeline(Readable.from(answer.body), count, out, { end: file !== undefined });
  } finally {
    clearInterval(timer);
  }
}
