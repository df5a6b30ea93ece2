// A redis-server of the test's own on a free loopback port, which the test may kill and start
// again on the same port (a lost Redis), with nothing saved to disk.
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { Redis } from 'ioredis';
import { expect } from 'vitest';
import { eventually } from '../../../../tests/support/eventually.js';

export interface RedisServer {
  url: string;
  /** Ends the server at once (SIGKILL), as a crash or a lost host would. */
  kill(): Promise<void>;
  /** Starts it again on the same port, empty, and waits until it answers. */
  restart(): Promise<void>;
  /** A client for the test's own reads; closed by stop. */
  client(): Redis;
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  server.close();
  await once(server, 'close');
  return port;
}

export async function startRedisServer(): Promise<RedisServer> {
  const port = await freePort();
  const url = `redis://127.0.0.1:${port}`;
  let child: ChildProcess | null = null;
  const clients: Redis[] = [];

  async function launch(): Promise<void> {
    child = spawn(
      'redis-server',
      ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
      { stdio: 'ignore' },
    );
    await eventually(async () => {
      const probe = new Redis(url, {
        lazyConnect: true,
        retryStrategy: () => null,
        maxRetriesPerRequest: 0,
      });
      probe.on('error', () => {});
      try {
        await probe.connect();
        expect(await probe.ping()).toBe('PONG');
      } finally {
        probe.disconnect();
      }
    });
  }

  async function kill(): Promise<void> {
    const running = child;
    child = null;
    if (!running || running.exitCode !== null) return;
    const exited = once(running, 'exit');
    running.kill('SIGKILL');
    await exited;
  }

  await launch();
  return {
    url,
    kill,
    restart: launch,
    client() {
      const client = new Redis(url, { maxRetriesPerRequest: 1 });
      client.on('error', () => {});
      clients.push(client);
      return client;
    },
    async stop() {
      for (const client of clients) client.disconnect();
      await kill();
    },
  };
}
