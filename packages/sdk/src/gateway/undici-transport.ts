// The Node transport: undici over a keep-alive connection pool, so a CLI that makes many calls
// reuses its sockets. Node only: reached through the `./node` entry, never the browser build.
import { Agent, request } from 'undici';
import type { Transport, TransportRequest } from './transport.js';

export interface UndiciTransportOptions {
  /** Sockets per origin. */
  connections?: number;
  /** How long an idle socket stays open, in ms. */
  keepAliveTimeoutMs?: number;
}

export type UndiciTransport = Transport & {
  /** Closes the pool's sockets so the process can exit at once. */
  close(): Promise<void>;
};

export function createUndiciTransport(options: UndiciTransportOptions = {}): UndiciTransport {
  const agent = new Agent({
    connections: options.connections ?? 16,
    keepAliveTimeout: options.keepAliveTimeoutMs ?? 10_000,
  });
  const send = async (req: TransportRequest) => {
    const response = await request(req.url, {
      dispatcher: agent,
      method: req.method as 'GET',
      headers: req.headers,
      body: req.body,
      signal: req.signal,
    });
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(response.headers)) {
      if (value === undefined) continue;
      headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
    }
    return { status: response.statusCode, headers, body: response.body };
  };
  const transport: Transport = async (req) => {
    const response = await send(req);
    return { ...response, body: await response.body.text() };
  };
  transport.stream = send;
  return Object.assign(transport, { close: () => agent.close() });
}
