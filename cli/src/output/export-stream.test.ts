import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CsvRowCounter, NdjsonToDocument } from './export-stream.js';

/** Runs `chunks` through `transform`, returning what came out. */
async function through(transform: NdjsonToDocument | CsvRowCounter, chunks: Buffer[]) {
  let out = '';
  await pipeline(
    Readable.from(chunks),
    transform,
    new Writable({
      write(chunk, _encoding, done) {
        out += chunk.toString();
        done();
      },
    }),
  );
  return out;
}

/** `text` cut into pieces at the given byte offsets, as a socket might deliver it. */
function cut(text: string, at: number[]): Buffer[] {
  const bytes = Buffer.from(text);
  const points = [...new Set(at.map((n) => n % (bytes.length + 1)))].sort((a, b) => a - b);
  const pieces: Buffer[] = [];
  let start = 0;
  for (const point of points) {
    pieces.push(bytes.subarray(start, point));
    start = point;
  }
  pieces.push(bytes.subarray(start));
  return pieces.filter((p) => p.length > 0);
}

const text = fc.string({ unit: 'grapheme' });
const row = fc.record({ name: text, phoneNumber: text, goodStanding: fc.boolean() });

describe('NdjsonToDocument', () => {
  it('turns NDJSON cut anywhere, even inside a character, into one JSON document', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(row, { maxLength: 20 }), fc.array(fc.nat()), async (rows, at) => {
        const ndjson = rows.map((r) => `${JSON.stringify(r)}\n`).join('');
        let last = 0;
        const document = new NdjsonToDocument({ product: 'flex', filters: {} }, (n) => {
          last = n;
        });
        const out = await through(document, cut(ndjson, at));
        expect(JSON.parse(out)).toEqual({
          product: 'flex',
          filters: {},
          items: rows,
          count: rows.length,
        });
        expect(document.rows).toBe(rows.length);
        if (rows.length > 0) expect(last).toBe(rows.length);
      }),
    );
  });
});

describe('CsvRowCounter', () => {
  it('counts records, not line breaks inside quoted fields, and passes the bytes through', async () => {
    const csv = 'name,phone\n"Ana\nMaría",+13055550105\n"Bo ""B""",+13055550106\n';
    const counter = new CsvRowCounter();
    expect(await through(counter, cut(csv, [3, 14, 15, 30]))).toBe(csv);
    expect(counter.rows).toBe(2);
  });
});
