// The gateway accepts on several descriptors of its listening socket (docs/operations.md): a crowd of
// new connections is spread over them, every request on them is served through a graceful close,
// and the close stops them all, so nothing accepts once the gateway has stopped.
import { readdir, readlink } from 'node:fs/promises';
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { eventually } from '../../../tests/support/eventually.js';
import type { RunningGateway } from './helpers/gateway.js';
import { type GatewayOnThread, startGatewayOnThread } from './helpers/gateway-on-thread.js';
import { ADMIN } from './helpers/people.js';

const DESCRIPTORS = 8;
const CLIENTS = 60;

let onThread: GatewayOnThread;
let running: RunningGateway;

beforeAll(async () => {
  // Its database held here, so the test can keep requests waiting on it while the server closes.
  onThread = await startGatewayOnThread('accept', { acceptDescriptors: DESCRIPTORS });
  ({ running } = onThread);
}, 180_000);

afterAll(async () => {
  await onThread?.close();
});

/** This process's descriptors of the socket `fd` refers to (copies share its `socket:[inode]`). */
async function descriptorsOf(socketLink: string): Promise<number> {
  let count = 0;
  for (const fd of await readdir('/proc/self/fd')) {
    const link = await readlink(`/proc/self/fd/${fd}`).catch(() => '');
    if (link === socketLink) count += 1;
  }
  return count;
}

function connectionsOf(server: { getConnections(cb: (e: Error | null, n: number) => void): void }) {
  return new Promise<number>((resolve, reject) =>
    server.getConnections((error, count) => (error ? reject(error) : resolve(count))),
  );
}

it('spreads a crowd over its descriptors, serves them all through a graceful close, then accepts nothing', async () => {
  const { server } = running.gateway.app;
  const { fd } = (server as unknown as { _handle: { fd: number } })._handle;
  const listening = await readlink(`/proc/self/fd/${fd}`);
  expect(listening).toMatch(/^socket:/);
  expect(await descriptorsOf(listening)).toBe(DESCRIPTORS);

  const release = await onThread.hold();

  const accepted: Socket[] = [];
  server.on('connection', (socket: Socket) => accepted.push(socket));
  const port = Number(new URL(running.url).port);
  const request = `GET /api/flex/v1/user HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: keep-alive\r\nAuthorization: ${running.as(ADMIN).authorization}\r\n\r\n`;
  const clients = Array.from({ length: CLIENTS }, () => {
    const socket: Socket = connect(port, '127.0.0.1');
    let received = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk) => {
      received += chunk;
    });
    socket.on('error', () => {});
    socket.write(request);
    const ended = new Promise<void>((resolve) => socket.once('close', () => resolve()));
    return { ended, received: () => received };
  });
  // Every connection is in, and every request waits on the held database.
  await eventually(() => expect(accepted.length).toBe(CLIENTS));
  await eventually(() => expect(running.gateway.db.queueDepth()).toBeGreaterThan(0));
  // The listening socket's own descriptor took only part of the crowd; its copies took the rest.
  expect(await connectionsOf(server)).toBeLessThan(CLIENTS);

  const closed = running.gateway.drain(0);
  await eventually(() => expect(server.listening).toBe(false));
  await release();
  await closed;

  // The close waited for every connection, whichever descriptor accepted it: none is still open
  // when it resolves, and each client got its answer, saying `Connection: close`.
  expect(accepted.filter((socket) => !socket.closed)).toHaveLength(0);
  await Promise.all(clients.map((client) => client.ended));
  const statuses = clients.map((client) => client.received().match(/^HTTP\/1\.1 (\d{3})/)?.[1]);
  expect(statuses).toEqual(Array(CLIENTS).fill('200'));
  for (const client of clients)
    expect(client.received().toLowerCase()).toContain('connection: close');

  // No descriptor of the socket is left, so a new connection is refused.
  expect(await descriptorsOf(listening)).toBe(0);
  const refused = await new Promise<string>((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve('connected');
    });
    socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? 'error'));
  });
  expect(refused).toBe('ECONNREFUSED');
}, 60_000);
