// Serialises a table's answer once and serves the same bytes until the table changes. The check per
// request is one primary-key read of `table_versions` (bumped by a trigger in every writing
// transaction), so it stays correct with several gateway processes on one database.
import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { createGzip } from 'node:zlib';
import { answerInPieces } from '../http/answer-pieces.js';
import type { Queryable } from '../storage/db.js';

/** Bytes ready to answer with: their length, and a stream of them a piece per event-loop turn. */
export interface AnswerBytes {
  readonly length: number;
  stream(): Readable;
}

export interface CachedBody extends AnswerBytes {
  /**
   * The exact bytes of the JSON answer, in the pieces they were read in: a large table is kept as
   * its pages, never joined into a second copy (a 30 MB answer would briefly take 60 MB).
   */
  readonly chunks: readonly Buffer[];
  /** A strong ETag derived from the bytes, the same in every process that built the same bytes. */
  readonly etag: string;
  /** The gzip'd copy, made on the first request that accepts gzip and kept with the bytes. */
  gzipped(): Promise<AnswerBytes>;
}

export type TableName = 'users' | 'invitations';

export interface TableCache {
  get(): Promise<CachedBody>;
}

export async function readTableVersion(db: Queryable, table: TableName): Promise<number> {
  const rows = await db.query<{ version: number }>(
    'SELECT version FROM table_versions WHERE name = $1',
    [table],
  );
  return Number(rows[0]?.version ?? -1);
}

/**
 * `build` reads the table and returns the answer's text, or its UTF-8 bytes in pieces. The version
 * is read before the rows, so a write landing in between leaves newer rows under an older version:
 * the next request sees the newer version and rebuilds. The reverse order could serve stale rows
 * forever; this one cannot.
 */
export function cacheTableBody(
  db: Queryable,
  table: TableName,
  build: () => Promise<string | readonly Buffer[]>,
): TableCache {
  let current: { version: number; body: CachedBody } | null = null;
  // Concurrent requests for a version being built share one build.
  let building: { version: number; body: Promise<CachedBody> } | null = null;

  async function rebuild(version: number): Promise<CachedBody> {
    const built = await build();
    const body = makeBody(typeof built === 'string' ? [Buffer.from(built, 'utf8')] : built);
    if (!current || current.version <= version) current = { version, body };
    return body;
  }

  // The version read is shared by the requests that arrive together: while one read is under way,
  // every request that arrives joins the next read, started once that one ends. Each request still
  // sees a version read after it arrived (a write it saw committed is never missed), but fifty
  // admins reading back to back cost a read or two per database round trip instead of one each:
  // on PGlite's one connection those reads had crowded out every other caller's queries.
  let reading: Promise<number> | null = null;
  let next: Promise<number> | null = null;
  function freshVersion(): Promise<number> {
    if (!reading) {
      reading = readTableVersion(db, table).finally(() => {
        reading = null;
      });
      return reading;
    }
    next ??= reading.then(
      () => afterRead(),
      () => afterRead(),
    );
    return next;
  }
  function afterRead(): Promise<number> {
    next = null;
    return freshVersion();
  }

  return {
    async get() {
      const version = await freshVersion();
      if (current && current.version === version) return current.body;
      if (building && building.version === version) return building.body;
      const body = rebuild(version);
      building = { version, body };
      try {
        return await body;
      } finally {
        if (building?.body === body) building = null;
      }
    },
  };
}

function makeBody(chunks: readonly Buffer[]): CachedBody {
  const hash = createHash('sha256');
  let length = 0;
  for (const chunk of chunks) {
    hash.update(chunk);
    length += chunk.length;
  }
  let gzipped: Promise<AnswerBytes> | null = null;
  return {
    chunks,
    length,
    stream: () => answerInPieces(chunks),
    etag: `"${hash.digest('base64url').slice(0, 27)}"`,
    gzipped() {
      // zlib works off the event loop: it takes the chunks as they are.
      gzipped ??= buffer(Readable.from(chunks, { objectMode: false }).pipe(createGzip())).then(
        (bytes) => ({
          length: bytes.length,
          stream: () => answerInPieces([bytes]),
        }),
      );
      return gzipped;
    },
  };
}
