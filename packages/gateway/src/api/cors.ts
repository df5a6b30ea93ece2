// Lets the web app's dev server (another origin) call the gateway from the browser; the built app
// served by the gateway itself is same-origin and needs none of this. Only listed origins are let in.
import type { FastifyInstance } from 'fastify';

/** Headers the clients read from answers: the health check's version and CDN ids. */
export const EXPOSED_HEADERS = ['x-amz-version-id', 'x-amz-cf-id'];

const ALLOWED_HEADERS = [
  'authorization',
  'content-type',
  'idempotency-key',
  // amazon-cognito-identity-js sends these to the user-pool endpoint.
  'x-amz-target',
  'x-amz-user-agent',
  'cache-control',
].join(', ');

export function registerCors(app: FastifyInstance, origins: readonly string[]): void {
  const allowed = new Set(origins.map((origin) => new URL(origin).origin));

  app.addHook('onRequest', async (request, reply) => {
    const origin = request.headers.origin;
    if (!origin || !allowed.has(origin)) return;
    reply
      .header('access-control-allow-origin', origin)
      .header('access-control-expose-headers', EXPOSED_HEADERS.join(', '))
      .header('vary', 'origin');
    if (request.method === 'OPTIONS') {
      // A preflight: answered here, before routing, so every route (identity's `POST /` too) has one.
      return reply
        .header('access-control-allow-methods', 'GET, HEAD, POST, OPTIONS')
        .header('access-control-allow-headers', ALLOWED_HEADERS)
        .header('access-control-max-age', '600')
        .status(204)
        .send();
    }
  });
}
