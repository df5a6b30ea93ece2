// What test suites and benchmarks (this repository's and an embedder's) need beside the gateway
// itself: its store's own reads and writes, to arrange data and check outcomes without going through
// the API, and in-memory databases that start already migrated. A fresh in-memory PGlite runs initdb and every migration,
// about 2 s of CPU; loading a copy of a migrated one costs a third of that. The copy is made once
// per version of the migrations and of PGlite, and kept in the system's temporary folder, so every
// test process of a run (and the next run) reuses it. It holds a signing key too: generating an RSA
// key costs 50–500 ms of CPU, once per gateway otherwise; a database on PostgreSQL or in a data
// folder still makes its own.
import { createHash } from 'node:crypto';
import { readFile, rename, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { loadSigningKey } from './identity/tokens.js';
import { type Db, startInMemoryDatabasesFrom } from './storage/db.js';
import { migrate } from './storage/migrate.js';
import { migrations } from './storage/migrations/index.js';

export { insertInvitations, listInvitations } from './storage/invitations.js';
export { readOutbox } from './storage/outbox.js';
export { readJobReport } from './storage/send-jobs.js';
export { upsertTemplates } from './storage/templates.js';
export {
  insertUsers,
  listUsers,
  type NewUser,
  toFlexUser,
  usersTablePages,
} from './storage/users.js';

/** Names the template after what it holds, so a changed migration or PGlite makes a new one. */
async function templateFile(): Promise<string> {
  const pgliteEntry = createRequire(import.meta.url).resolve('@electric-sql/pglite');
  const pglite = await readFile(join(dirname(pgliteEntry), '..', 'package.json'), 'utf8');
  const hash = createHash('sha256')
    .update(JSON.parse(pglite).version)
    .update(JSON.stringify(migrations))
    .update('with a signing key')
    .digest('hex')
    .slice(0, 16);
  return join(tmpdir(), `blockcatch-pglite-${hash}.tar`);
}

/** The migrated template as a tarball, made and saved first when no process has made it yet. */
export async function migratedTemplate(): Promise<Uint8Array<ArrayBuffer>> {
  const file = await templateFile();
  try {
    return await readFile(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const lite = await PGlite.create();
  const db: Db = {
    kind: 'pglite',
    query: async (sql, params) => (await lite.query<never>(sql, params)).rows,
    transaction: (fn) =>
      lite.transaction((tx) =>
        fn({ query: async (sql, params) => (await tx.query<never>(sql, params)).rows }),
      ),
    close: () => lite.close(),
  };
  await migrate(db);
  await loadSigningKey(db, Date.now());
  const dump = new Uint8Array(await (await lite.dumpDataDir('none')).arrayBuffer());
  await lite.close();
  // Written aside, then renamed: two processes making it at once never leave half a file.
  const partial = `${file}.${process.pid}.partial`;
  await writeFile(partial, dump);
  await rename(partial, file);
  return dump;
}

/** Makes every later in-memory PGlite database in this process start from the migrated template. */
export function startInMemoryDatabasesMigrated(): void {
  let template: Promise<Uint8Array<ArrayBuffer>> | undefined;
  startInMemoryDatabasesFrom(() => {
    template ??= migratedTemplate();
    return template;
  });
}
