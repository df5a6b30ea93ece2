// More descriptors of the listening socket, so one busy process takes a crowd of new connections in
// a few turns of its event loop rather than one turn each. Node 20's libuv accepts one connection
// per descriptor per turn, and under load a turn takes milliseconds: 1,000 connections opened at
// once waited seconds to be accepted (docs/operations.md). Node 20 has no `reusePort`, and a process
// cannot duplicate a descriptor itself; a short-lived child can. It receives the socket's raw handle
// over IPC and sends it back, and each handle received is a new descriptor of the same socket. The
// kernel keeps one queue of connections for all of them. The child gets the raw handle, not a
// server, so it never listens or accepts; it exits once it has sent the copies.
import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:net';

const CHILD = `
process.on('message', (count, handle) => {
  let left = count;
  const next = (error) => {
    if (error || left-- === 0) return process.disconnect();
    process.send('copy', handle, next);
  };
  next();
});
`;

// The child starts and answers in tens of milliseconds; past this the gateway goes on without it.
const CHILD_TIMEOUT_MS = 10_000;

/** Where the child comes from: Node itself, except in the tests of a child that fails. */
export interface CopyingChild {
  execPath: string;
  timeoutMs: number;
}

export interface AcceptHandles {
  /** Descriptors accepting beside the server's own. */
  readonly added: number;
  /** Stops accepting on them; resolves once the connections they accepted have all closed. */
  close(): Promise<void>;
}

/**
 * Accepts `server`'s connections on up to `extra` more descriptors of its listening socket, each
 * handing what it accepts to `server`, as the server's own would. Call once `server` listens.
 * Never fails: without a child (none could start, or it did not answer) it adds fewer, or none.
 */
export async function addAcceptHandles(
  server: Server,
  extra: number,
  backlog: number,
  child: CopyingChild = { execPath: process.execPath, timeoutMs: CHILD_TIMEOUT_MS },
): Promise<AcceptHandles> {
  // `_handle` is how Node itself passes a server's socket to another process (cluster, `send`).
  const handle = (server as unknown as { _handle?: object | null })._handle;
  if (extra <= 0 || !handle) return { added: 0, close: async () => {} };
  const copies = await copiesFromChild(handle, extra, child);
  const servers = copies.map((copy) => {
    // The options of Node's HTTP server, so a socket accepted here is set up as its own would be.
    const copyServer = createServer({ allowHalfOpen: true, noDelay: true });
    copyServer.on('connection', (socket) => server.emit('connection', socket));
    copyServer.on('error', (error) => server.emit('error', error));
    // A listen on a copy sets the socket's backlog again: Node's default (511) would shrink it.
    copyServer.listen(copy, backlog);
    return copyServer;
  });
  let closed: Promise<void> | null = null;
  return {
    added: servers.length,
    close() {
      // A server's close calls back once its own connections have ended: those it accepted count
      // there, not on `server`, whose close would otherwise not wait for them.
      closed ??= Promise.all(
        servers.map((s) => new Promise<void>((resolve) => s.close(() => resolve()))),
      ).then(() => {});
      return closed;
    },
  };
}

function copiesFromChild(
  handle: object,
  count: number,
  { execPath, timeoutMs }: CopyingChild,
): Promise<object[]> {
  const copies: object[] = [];
  return new Promise((resolve) => {
    let child: ReturnType<typeof spawn>;
    try {
      // No environment and no flags of ours: the child runs the script above and nothing else.
      child = spawn(execPath, ['-e', CHILD], {
        stdio: ['ignore', 'ignore', 'ignore', 'ipc'],
        env: {},
      });
    } catch {
      resolve(copies);
      return;
    }
    const timer = setTimeout(() => child.kill(), timeoutMs);
    const done = () => {
      clearTimeout(timer);
      resolve(copies);
    };
    child.on('message', (_message, copy) => {
      if (copy) copies.push(copy as object);
      if (copies.length === count) done();
    });
    // The channel closes after the last message it carried, so nothing is missed here; 'exit' can
    // come before the last message is read. A child killed before it ever read from the channel
    // (one that hung) ends with 'close' and no 'disconnect'.
    child.once('disconnect', done);
    child.once('close', done);
    child.once('error', done);
    child.send(count, handle as never, (error) => {
      if (error) child.kill();
    });
  });
}
