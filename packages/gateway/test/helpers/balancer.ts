// A small load balancer on loopback, set up as docs/operations.md sets nginx or HAProxy in front of
// the gateway: round-robin over the backends whose `/api/status/ready` last answered 200 (checked
// every `checkMs`), kept-alive connections to them, and no retries, so every request a backend
// fails reaches the client as a failure.
import { createServer, type IncomingHttpHeaders } from 'node:http';
import { setInterval as every } from 'node:timers/promises';
import { Agent, request } from 'undici';

export interface Balancer {
  url: string;
  /** The backends it sends to now. */
  ready(): string[];
  close(): Promise<void>;
}

const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'host', 'upgrade']);

function endToEnd(headers: IncomingHttpHeaders | Record<string, string | string[] | undefined>) {
  const kept: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined && !HOP_BY_HOP.has(name.toLowerCase())) kept[name] = value;
  }
  return kept;
}

export async function startBalancer(
  backends: string[],
  { checkMs = 200 }: { checkMs?: number } = {},
): Promise<Balancer> {
  const agent = new Agent({ keepAliveTimeout: 30_000 });
  const ready = new Set<string>();
  let next = 0;
  const stopChecks = new AbortController();

  const check = async (backend: string) => {
    try {
      const answer = await request(`${backend}/api/status/ready`, {
        dispatcher: agent,
        headersTimeout: 2000,
        bodyTimeout: 2000,
      });
      await answer.body.dump();
      if (answer.statusCode === 200) ready.add(backend);
      else ready.delete(backend);
    } catch {
      ready.delete(backend);
    }
  };
  // The balancer's own health checks: a round at once, then one every `checkMs`, as a real
  // balancer's interval; the tests wait for what it concludes with eventually().
  const checker = (async () => {
    await Promise.all(backends.map(check));
    try {
      for await (const _ of every(checkMs, undefined, { signal: stopChecks.signal })) {
        await Promise.all(backends.map(check));
      }
    } catch (error) {
      if (!stopChecks.signal.aborted) throw error;
    }
  })();

  const server = createServer((incoming, outgoing) => {
    const candidates = backends.filter((backend) => ready.has(backend));
    if (candidates.length === 0) {
      outgoing.writeHead(502).end('no backend is ready');
      return;
    }
    const backend = candidates[next++ % candidates.length]!;
    const hasBody = incoming.method !== 'GET' && incoming.method !== 'HEAD';
    request(`${backend}${incoming.url}`, {
      method: incoming.method as 'GET',
      headers: endToEnd(incoming.headers),
      ...(hasBody ? { body: incoming } : {}),
      dispatcher: agent,
    }).then(
      async (answer) => {
        outgoing.writeHead(answer.statusCode, endToEnd(answer.headers));
        try {
          for await (const chunk of answer.body) outgoing.write(chunk);
          outgoing.end();
        } catch {
          // Cut mid-answer: the client sees the connection fail, as it would behind a balancer.
          outgoing.destroy();
        }
      },
      (error: Error) => {
        if (!outgoing.headersSent) outgoing.writeHead(502);
        outgoing.end(`the backend failed: ${error.message}`);
      },
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    ready: () => backends.filter((backend) => ready.has(backend)),
    async close() {
      stopChecks.abort();
      await checker;
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await agent.close();
    },
  };
}
