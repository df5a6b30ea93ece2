// What the request log says about a request: Fastify's usual fields, with the secret of a path
// that is its own credential (a private calendar address) replaced, so it never reaches the logs.
import type { FastifyRequest } from 'fastify';

/** Paths whose last part is a secret: a calendar app fetching a private address cannot sign in. */
export const SECRET_PATH_PREFIXES = ['/api/calendar/'] as const;

export function withoutPathSecrets(url: string): string {
  for (const prefix of SECRET_PATH_PREFIXES) {
    if (url.startsWith(prefix)) return `${prefix}[secret]`;
  }
  return url;
}

export function describeRequestForLog(request: FastifyRequest) {
  return {
    method: request.method,
    url: withoutPathSecrets(request.url),
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}
