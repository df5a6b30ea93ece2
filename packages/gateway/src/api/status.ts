// The status checks: `/api/status/health` is liveness (the process answers; clients poll it for
// the version and CDN ids in its headers, and its body says how it is doing), `/api/status/ready`
// says whether this process should get traffic now. A load balancer routes on ready, a supervisor
// restarts on health (docs/operations.md, "Restarts, outages and load balancers").
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { GatewayConfig } from '../config.js';
import { EXPOSED_HEADERS } from '../http/edge.js';
import { sendUnavailable } from '../http/errors.js';
import type { DatabaseAvailability } from '../storage/db-availability.js';

/** `degraded`: the database cannot be reached; `draining`: shutting down, ready already fails. */
const healthSchema = z.object({ status: z.enum(['ok', 'degraded', 'draining']) });
const readySchema = z.object({ status: z.literal('ready') });

export interface StatusDeps {
  config: GatewayConfig;
  availability: DatabaseAvailability;
  /** True from the moment a shutdown begins. */
  draining: () => boolean;
}

export function registerStatusRoutes(
  app: FastifyInstance,
  { config, availability, draining }: StatusDeps,
): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  // Probes are answered whatever the request limit: a balancer polls from one address, and a probe
  // refused for that would take a healthy process out.
  const probe = { auth: 'public' as const, rateLimit: false as const };

  api.get(
    '/api/status/health',
    { config: probe, schema: { response: { 200: healthSchema } } },
    async (_request, reply) =>
      noStore(reply)
        .header('x-amz-version-id', config.versionId)
        .header('x-amz-cf-id', config.cdnId)
        .header('access-control-expose-headers', EXPOSED_HEADERS.join(', '))
        .send({
          status: draining()
            ? 'draining'
            : availability.state() === 'unreachable'
              ? 'degraded'
              : 'ok',
        }),
  );

  // Migrations have run before any route is served, so a process that answers has them.
  api.get(
    '/api/status/ready',
    { config: probe, schema: { response: { 200: readySchema } } },
    async (_request, reply) => {
      if (draining()) return sendUnavailable(noStore(reply), 'The gateway is shutting down.');
      if (!(await availability.check())) {
        return sendUnavailable(noStore(reply), 'The database cannot be reached.');
      }
      // Draining may have begun while the database was asked.
      if (draining()) return sendUnavailable(noStore(reply), 'The gateway is shutting down.');
      return noStore(reply).send({ status: 'ready' });
    },
  );
}

const noStore = (reply: FastifyReply) => reply.header('cache-control', 'no-store');
