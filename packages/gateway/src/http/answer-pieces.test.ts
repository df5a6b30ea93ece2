// A large answer goes to its socket a piece per turn of the event loop, and arrives whole.
import { buffer } from 'node:stream/consumers';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { answerInPieces } from './answer-pieces.js';

describe('answerInPieces', () => {
  it('yields exactly the bytes given, whatever the chunks and the piece size', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.uint8Array({ maxLength: 300 }), { maxLength: 12 }),
        fc.integer({ min: 1, max: 200 }),
        async (arrays, pieceBytes) => {
          const chunks = arrays.map((a) => Buffer.from(a));
          const read = await buffer(answerInPieces(chunks, pieceBytes));
          expect(read.equals(Buffer.concat(chunks))).toBe(true);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('gives two answers read at once one piece each per turn of the event loop', async () => {
    // A ticker counts the turns: it runs once per check phase, as each piece's push does.
    let turn = 0;
    let ticking = true;
    const tick = () => {
      turn++;
      if (ticking) setImmediate(tick);
    };
    setImmediate(tick);
    const bytes = Buffer.alloc(1024 * 1024, 7);
    const turnsOf = (stream: ReturnType<typeof answerInPieces>) =>
      new Promise<number[]>((resolve, reject) => {
        const turns: number[] = [];
        stream.on('data', () => turns.push(turn));
        stream.on('end', () => resolve(turns));
        stream.on('error', reject);
      });
    const piece = 64 * 1024;
    const [a, b] = await Promise.all([
      turnsOf(answerInPieces([bytes.subarray(0, 512 * 1024), bytes.subarray(512 * 1024)], piece)),
      turnsOf(answerInPieces([bytes], piece)),
    ]);
    ticking = false;
    // 1 MB in 64 KB pieces: sixteen pieces each, in sixteen different turns.
    expect(a).toHaveLength(16);
    expect(b).toHaveLength(16);
    expect(new Set(a).size).toBe(16);
    expect(new Set(b).size).toBe(16);
  });

  it('stops handing out pieces once its reader is gone', async () => {
    const stream = answerInPieces([Buffer.alloc(1024 * 1024)]);
    let pieces = 0;
    await new Promise<void>((resolve) => {
      stream.on('data', () => {
        pieces++;
        if (pieces === 2) stream.destroy();
      });
      stream.on('close', () => resolve());
    });
    await new Promise((resolve) => setImmediate(resolve));
    expect(pieces).toBe(2);
  });
});
