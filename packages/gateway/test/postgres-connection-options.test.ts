// The settings each PostgreSQL connection starts with, read back from a real server: JIT off, the
// schema's search path, and what the operator adds in DATABASE_URL's `options` on top.
import { afterEach, describe, expect, it } from 'vitest';
import { type Db, openDatabase } from '../src/storage/db.js';
import { POSTGRES_URL, uniqueSchema } from './helpers/database.js';
import { dropSchema } from './messaging-harness.js';

describe('PostgreSQL connections', () => {
  let db: Db | undefined;
  const schema = uniqueSchema();
  afterEach(async () => {
    await db?.close();
    await dropSchema(schema);
  });

  it("start with JIT off, the schema's path and the operator's own options", async () => {
    const url = new URL(POSTGRES_URL);
    url.searchParams.set('options', '-c statement_timeout=4321');
    db = await openDatabase({ kind: 'postgres', url: url.toString(), schema });
    const show = async (name: string) =>
      (await db!.query<Record<string, string>>(`SHOW ${name}`))[0]![name];
    expect(await show('jit')).toBe('off');
    expect(await show('statement_timeout')).toBe('4321ms');
    expect(await show('search_path')).toBe(`"${schema}"`);
    // A transaction's connection is set up the same way.
    expect(
      await db.transaction(async (tx) => (await tx.query<{ jit: string }>('SHOW jit'))[0]!.jit),
    ).toBe('off');
  });
});
