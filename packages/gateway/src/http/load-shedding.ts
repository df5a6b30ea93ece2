// Backpressure: while more requests wait for the database than its bound allows, new requests are
// refused at once with 503 `unavailable` and `Retry-After` rather than joining a queue without end.
// Requests are counted, not queries (see db-callers.ts): a request running several reads at once
// waits as one. The health check and the web app's files are always answered: they touch no
// database, and a balancer must still see us.
import type { FastifyInstance } from 'fastify';
import { DatabaseBusyError } from '../storage/db.js';
import { isWebAppRequest } from '../web.js';
import type { CallerCountingDb } from './db-callers.js';

/** Routes answered whatever the database's queue. */
const NEVER_SHED = new Set(['/api/status/health']);

/**
 * Installs the check as the first onRequest hook, before authentication queries anything. An
 * admitted request runs the rest of its hooks and its handler as one caller of `db`.
 */
export function installLoadShedding(
  app: FastifyInstance,
  db: CallerCountingDb,
  queueLimit: number,
): void {
  app.addHook('onRequest', (request, reply, done) => {
    if (NEVER_SHED.has(request.routeOptions.url ?? '') || isWebAppRequest(request)) {
      done();
      return;
    }
    const depth = db.queueDepth();
    if (depth > queueLimit) {
      done(new DatabaseBusyError(depth, queueLimit));
      return;
    }
    // 'close' comes after the answer is sent or the client left, never synchronously.
    const caller = db.admit(() => done());
    reply.raw.once('close', () => caller.end());
  });
}
