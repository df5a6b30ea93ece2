// A gateway process for the kill-mid-send test: the messaging routes and worker on a real
// PostgreSQL schema at 50 messages/s. Prints `READY <url>` once it listens.
import { openDatabase } from '../src/storage/db.js';
import { migrate } from '../src/storage/migrate.js';
import { POSTGRES_URL, startMessagingServer } from './messaging-harness.js';

const schema = process.env.MESSAGING_TEST_SCHEMA;
if (!schema) throw new Error('MESSAGING_TEST_SCHEMA is not set');
const db = await openDatabase({ kind: 'postgres', url: POSTGRES_URL, schema });
await migrate(db);
const server = await startMessagingServer(db, {
  config: { sendRate: Number(process.env.MESSAGING_TEST_RATE ?? 50) },
});
process.stdout.write(`READY ${server.url}\n`);
process.on('SIGTERM', async () => {
  await server.close();
  await db.close();
  process.exit(0);
});
