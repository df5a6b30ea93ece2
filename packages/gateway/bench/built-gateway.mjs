// @ts-check
// The built gateway (dist) in a plain Node process, as `npm start` runs it: the memory bench's
// measured process. Plain JavaScript on purpose: a TypeScript loader in the process would be
// measured with it (60–90 MB more RSS).
//
// Argument: the gateway's config as JSON. Over IPC it answers
//   { type: 'started', rss, url, clientId } once listening, then
//   { type: 'rss', rss } to { type: 'rss' },
//   { type: 'closed' } to { type: 'close', dropSchema? }.
// RSS in MB.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const entry = fileURLToPath(new URL('../dist/index.js', import.meta.url));
if (!existsSync(entry)) {
  console.error(`${entry} is missing: build the gateway first (npm run build).`);
  process.exit(1);
}
const { buildGateway } = await import(entry);

const send = (/** @type {object} */ message) => process.send?.(message);
const rssMb = () => Math.round(process.memoryUsage().rss / 1_048_576);

const gateway = await buildGateway(JSON.parse(process.argv[2] ?? '{}'));
await gateway.app.listen({ host: '127.0.0.1', port: 0 });
const address = gateway.app.server.address();
send({
  type: 'started',
  rss: rssMb(),
  url: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`,
  clientId: gateway.config.clientId,
});

process.on('message', async (/** @type {{ type: string, dropSchema?: string }} */ message) => {
  if (message.type === 'rss') send({ type: 'rss', rss: rssMb() });
  if (message.type === 'close') {
    if (message.dropSchema) await gateway.db.query(`DROP SCHEMA "${message.dropSchema}" CASCADE`);
    await gateway.close();
    send({ type: 'closed' });
    process.disconnect();
  }
});
