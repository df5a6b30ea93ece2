// @ts-check
// Many new clients at once, from a process of their own: `npm run bench:load`'s burst. Each client
// opens its own TCP connection, asks GET /api/status/health and times its whole answer from the
// moment the burst began (connecting included). Plain sockets and plain JavaScript on purpose: a
// thousand undici clients built in one process cost that process about 100 ms before the last one
// even connects, and the load generator's own event loop would delay them further; either would
// be counted as the server's. Real clients each have a machine of their own.
//
// Arguments: url count timeoutMs. Answers its parent over IPC with
//   { began, results: [[ms, status], ...] }: status is the HTTP status, or an error code such as
//   ETIMEDOUT; `began` is when the burst began, in ms since the epoch (performance.timeOrigin plus
//   performance.now(), comparable with the server's own clock on this machine).
import { connect } from 'node:net';

const [url = '', countText = '', timeoutText = ''] = process.argv.slice(2);
const target = new URL(url);
const count = Number(countText);
const timeoutMs = Number(timeoutText);
if (!(Number.isInteger(count) && count > 0 && count <= 10_000 && timeoutMs > 0)) {
  console.error('usage: burst-client.mjs URL COUNT TIMEOUT_MS (COUNT 1–10,000)');
  process.exit(2);
}
const request = `GET /api/status/health HTTP/1.1\r\nHost: ${target.host}\r\n\r\n`;

/**
 * One client: resolves to [ms, status] once the answer's headers and its Content-Length of body
 * are in, or [ms, code] when the connection fails or the answer takes longer than timeoutMs.
 * @param {number} began
 * @returns {Promise<[number, number | string]>}
 */
function oneClient(began) {
  return new Promise((resolve) => {
    const socket = connect({ host: target.hostname, port: Number(target.port) });
    let received = Buffer.alloc(0);
    let done = false;
    /** @param {number | string} status */
    const finish = (status) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.destroy();
      resolve([performance.now() - began, status]);
    };
    const timer = setTimeout(() => finish('ETIMEDOUT'), timeoutMs);
    socket.once('connect', () => socket.write(request));
    socket.on('data', (chunk) => {
      received = Buffer.concat([received, chunk]);
      const headEnd = received.indexOf('\r\n\r\n');
      if (headEnd < 0) return;
      const head = received.subarray(0, headEnd).toString('latin1');
      const status = Number(head.slice(9, 12));
      const length = Number(/\r\ncontent-length: *(\d+)/i.exec(head)?.[1] ?? 0);
      if (received.length - headEnd - 4 >= length) finish(status);
    });
    socket.once('error', (/** @type {NodeJS.ErrnoException} */ error) =>
      finish(error.code ?? 'error'),
    );
    socket.once('close', () => finish('ECONNRESET'));
  });
}

// Every connection is started in one turn of the event loop, as a crowd arriving together.
const began = performance.now();
const results = await Promise.all(Array.from({ length: count }, () => oneClient(began)));
process.send?.({ began: performance.timeOrigin + began, results }, () => process.disconnect());
