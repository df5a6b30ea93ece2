// Closing with requests on a kept-alive connection: every request the server accepted is served,
// the answers sent once the close has begun say `Connection: close`, and the connection ends with
// the last of them, so the close never waits out a keep-alive timeout.
import { connect } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { eventually } from '../../../tests/support/eventually.js';
import type { RunningGateway } from './helpers/gateway.js';
import { type GatewayOnThread, startGatewayOnThread } from './helpers/gateway-on-thread.js';
import { ADMIN } from './helpers/people.js';

let onThread: GatewayOnThread;
let running: RunningGateway;

beforeAll(async () => {
  // Its database held here, so the test can keep a request waiting on it while the server closes.
  onThread = await startGatewayOnThread('shutdown');
  ({ running } = onThread);
}, 180_000);

afterAll(async () => {
  await onThread?.close();
});

it('finishes the requests a kept-alive connection had sent, then closes it, when the server closes', async () => {
  const release = await onThread.hold();

  const { port } = new URL(running.url);
  const socket = connect(Number(port), '127.0.0.1');
  let received = '';
  socket.setEncoding('utf8');
  socket.on('data', (chunk) => {
    received += chunk;
  });
  const ended = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  const get = (path: string) =>
    `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: keep-alive\r\nAuthorization: ${running.as(ADMIN).authorization}\r\n\r\n`;
  // The first waits on the held database; the second is read once the first is answered.
  socket.write(get('/api/flex/v1/user') + get('/api/flex/v1/user'));
  await eventually(() => expect(running.gateway.db.queueDepth()).toBeGreaterThan(0));

  const closed = running.gateway.drain(0);
  await eventually(() => expect(running.gateway.app.server.listening).toBe(false));
  await release();
  await ended;
  await closed;

  const statuses = [...received.matchAll(/HTTP\/1\.1 (\d{3})/g)].map((match) => match[1]);
  expect(statuses).toEqual(['200', '200']);
  // The first answer keeps the connection for the second; the second, its last, closes it.
  const [first, second] = received.split(/(?=HTTP\/1\.1 )/);
  expect(first?.toLowerCase()).toContain('connection: keep-alive');
  expect(second?.toLowerCase()).toContain('connection: close');
  expect(running.gateway.draining()).toBe(true);
});
