// Backpressure: while more requests wait for the database than its bound allows, or while the
// database cannot be reached, new requests are refused at once with 503 `unavailable` and
// `Retry-After` rather than joining a queue without end or waiting for a connection.
// Requests are counted, not queries (see db-callers.ts): a request running several reads at once
// waits as one. The status checks and the web app's files are always answered: they touch no
// database (readiness asks it itself, within a bound), and a balancer must still see us.
import type { FastifyInstance } from 'fastify';
import { DatabaseBusyError } from '../storage/db.js';
import { type DatabaseAvailability, DatabaseUnavailableError } from '../storage/db-availability.js';
import { isWebAppRequest } from '../web.js';
import type { CallerCountingDb } from './db-callers.js';

/** Routes answered whatever the database's queue. */
const NEVER_SHED = new Set(['/api/status/health', '/api/status/ready']);

/**
 * Installs the check as the first onRequest hook, before authentication queries anything. An
 * admitted request runs the rest of its hooks and its handler as one caller of `db`.
 */
export function installLoadShedding(
  app: FastifyInstance,
  db: CallerCountingDb,
  queueLimit: number,
  availability?: DatabaseAvailability,
): void {
  app.addHook('onRequest', (request, reply, done) => {
    if (NEVER_SHED.has(request.routeOptions.url ?? '') || isWebAppRequest(request)) {
      done();
      return;
    }
    if (availability?.state() === 'unreachable') {
      done(new DatabaseUnavailableError('The database cannot be reached; try again shortly.'));
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
