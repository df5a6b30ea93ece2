// A bare Fastify server in a process of its own, answering GET /api/status/health with the gateway's
// body and the same listen backlog: the floor `npm run bench:load` compares a burst of new
// connections to. Tells its parent its URL over IPC; ends when the parent disconnects.
import type { AddressInfo } from 'node:net';
import Fastify from 'fastify';

const app = Fastify();
app.get('/api/status/health', async () => ({ status: 'ok' }));
await app.listen({ host: '127.0.0.1', port: 0, backlog: 4096 });
process.send?.({ url: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}` });
process.once('disconnect', () => {
  void app.close().then(() => process.exit(0));
});
