// Backpressure: while the database's queue of waiting queries is past its bound, new requests are
// refused at once with 503 `unavailable` and `Retry-After` rather than joining a queue without end.
// The health check is always answered: it touches no database, and a balancer must still see us.
import type { FastifyInstance } from 'fastify';
import { DatabaseBusyError, type Db } from '../storage/db.js';

/** Routes answered whatever the database's queue. */
const NEVER_SHED = new Set(['/api/status/health']);

/** Installs the check as the first onRequest hook, before authentication queries anything. */
export function installLoadShedding(app: FastifyInstance, db: Db, queueLimit: number): void {
  app.addHook('onRequest', async (request) => {
    if (NEVER_SHED.has(request.routeOptions.url ?? '')) return;
    const depth = db.queueDepth();
    if (depth > queueLimit) throw new DatabaseBusyError(depth, queueLimit);
  });
}
