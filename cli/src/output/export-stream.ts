// `users|invitations export` (and `list --json`): the gateway filters and streams the rows; this
// pipes them to stdout or a file as they arrive, with backpressure, so the CLI's memory stays flat
// however many rows there are. CSV passes through as it is; NDJSON becomes one JSON document
// (`{ ...meta, "items": [...], "count": N }`) with one row per line, written as it comes.
import { createWriteStream } from 'node:fs';
import { Readable, Transform, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { StringDecoder } from 'node:string_decoder';
import type { UsersExport } from '@blockcatch/sdk';

const NEWLINE = 10;
const QUOTE = 34;

/** Counts CSV records as they pass: newlines outside quotes, so a quoted line break is one row. */
export class CsvRowCounter extends Transform {
  lines = 0;
  private quoted = false;

  constructor(private readonly onRows: (rows: number) => void = () => {}) {
    super();
  }

  override _transform(
    chunk: Buffer,
    _encoding: BufferEncoding,
    done: (e?: Error | null, c?: Buffer) => void,
  ) {
    if (!this.quoted && chunk.indexOf(QUOTE) === -1) {
      // Most chunks hold no quoted field: count line ends natively instead of byte by byte.
      for (let i = chunk.indexOf(NEWLINE); i !== -1; i = chunk.indexOf(NEWLINE, i + 1))
        this.lines++;
    } else {
      for (let i = 0; i < chunk.length; i++) {
        const byte = chunk[i];
        if (byte === QUOTE) this.quoted = !this.quoted;
        else if (byte === NEWLINE && !this.quoted) this.lines++;
      }
    }
    this.onRows(this.rows);
    done(null, chunk);
  }

  /** Records after the header line. */
  get rows(): number {
    return Math.max(0, this.lines - 1);
  }
}

/** NDJSON rows in, one JSON document out: `meta`'s fields, `items` one row a line, then `count`. */
export class NdjsonToDocument extends Transform {
  rows = 0;
  private carry = '';
  private started = false;
  // A chunk may end inside a character: the decoder holds its first bytes until the rest arrive.
  private readonly decoder = new StringDecoder('utf8');

  constructor(
    private readonly meta: Record<string, unknown>,
    private readonly onRows: (rows: number) => void = () => {},
    /** Only these fields of each row (`--json name,phoneNumber`), in this order. */
    private readonly fields: readonly string[] | null = null,
  ) {
    super();
  }

  private shape(line: string): string {
    if (!this.fields) return line;
    const row = JSON.parse(line) as Record<string, unknown>;
    return JSON.stringify(Object.fromEntries(this.fields.map((f) => [f, row[f] ?? null])));
  }

  override _transform(
    chunk: Buffer,
    _encoding: BufferEncoding,
    done: (e?: Error | null, c?: string) => void,
  ) {
    if (!this.started) {
      this.started = true;
      this.push(this.head());
    }
    const text = this.carry + this.decoder.write(chunk);
    const end = text.lastIndexOf('\n');
    if (end === -1) {
      this.carry = text;
      done();
      return;
    }
    this.carry = text.slice(end + 1);
    const lines = text.slice(0, end).split('\n');
    let out = '';
    for (const line of lines) {
      if (line === '') continue;
      out += `${this.rows === 0 ? '' : ',\n'}    ${this.shape(line)}`;
      this.rows++;
    }
    this.onRows(this.rows);
    done(null, out);
  }

  override _flush(done: (e?: Error | null, c?: string) => void) {
    if (!this.started) this.push(this.head());
    this.carry += this.decoder.end();
    let out = '';
    if (this.carry.trim() !== '') {
      out += `${this.rows === 0 ? '' : ',\n'}    ${this.shape(this.carry)}`;
      this.rows++;
    }
    done(null, `${out}${this.rows === 0 ? '' : '\n'}  ],\n  "count": ${this.rows}\n}\n`);
  }

  private head(): string {
    const fields = Object.entries(this.meta).map(
      ([key, value]) => `  ${JSON.stringify(key)}: ${JSON.stringify(value)},\n`,
    );
    return `{\n${fields.join('')}  "items": [\n`;
  }
}

export interface ExportTarget {
  format: 'csv' | 'json';
  /** Where to write; stdout when absent. */
  file?: string;
  /** The JSON document's fields beside `items` and `count`. */
  meta?: Record<string, unknown>;
  /** JSON only: the fields of each row to keep. */
  fields?: readonly string[];
}

/** Writes the export, calling `onRows` with the running count after each chunk; resolves with the row count. */
export async function writeExport(
  answer: UsersExport,
  target: ExportTarget,
  onRows: (rows: number) => void,
): Promise<number> {
  const shape =
    target.format === 'csv'
      ? new CsvRowCounter(onRows)
      : new NdjsonToDocument(target.meta ?? {}, onRows, target.fields ?? null);
  const out: Writable = target.file ? createWriteStream(target.file) : process.stdout;
  await pipeline(Readable.from(answer.body), shape, out, { end: target.file !== undefined });
  return shape.rows;
}
