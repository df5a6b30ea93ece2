// A TCP proxy on loopback that a test opens and closes: the gateway's database connections go
// through it, so closing it is the database becoming unreachable (connections cut, new ones
// refused), and opening it again on the same port is the database coming back.
import { createConnection, createServer, type Server, type Socket } from 'node:net';

export interface TcpProxy {
  port: number;
  /** Cuts every connection and refuses new ones. */
  close(): Promise<void>;
  /** Accepts connections again, on the same port. */
  open(): Promise<void>;
}

export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const sockets = new Set<Socket>();
  const track = (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  };
  const serve = (): Server =>
    createServer((client) => {
      const upstream = createConnection(target);
      track(client);
      track(upstream);
      client.pipe(upstream);
      upstream.pipe(client);
      // Either side going away takes the other with it, as a lost network path would.
      client.once('error', () => upstream.destroy());
      upstream.once('error', () => client.destroy());
      client.once('close', () => upstream.destroy());
      upstream.once('close', () => client.destroy());
    });
  const listen = (server: Server, port: number) =>
    new Promise<number>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        const address = server.address();
        resolve(typeof address === 'object' && address ? address.port : port);
      });
    });

  let server = serve();
  const port = await listen(server, 0);
  return {
    port,
    async close() {
      const closed = new Promise((resolve) => server.close(resolve));
      for (const socket of sockets) socket.destroy();
      await closed;
    },
    async open() {
      server = serve();
      await listen(server, port);
    },
  };
}
