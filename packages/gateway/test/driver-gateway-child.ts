// A gateway process for the catcher takeover test: the whole gateway on a real PostgreSQL schema
// with 1 s leases. Prints `READY <holder id>` once it listens.
import { buildGateway } from '../src/server.js';
import { POSTGRES_URL } from './helpers/database.js';

const schema = process.env.DRIVER_TEST_SCHEMA;
if (!schema) throw new Error('DRIVER_TEST_SCHEMA is not set');
const gateway = await buildGateway({
  port: 0,
  logLevel: 'silent',
  seed: false,
  databaseUrl: POSTGRES_URL,
  databaseSchema: schema,
  platformKey: process.env.DRIVER_TEST_KEY,
  catcher: { leaseMs: 1000, renewMs: 200, pollIntervalMs: 50, minPollIntervalMs: 0 },
  sandboxPlatform: { offerIntervalMs: 0, failureRate: 0, maxPollsPerSecond: 0 },
});
await gateway.app.listen({ host: '127.0.0.1', port: 0 });
process.stdout.write(`READY ${gateway.driver.catcher.holderId}\n`);
process.on('SIGTERM', async () => {
  await gateway.close();
  process.exit(0);
});
