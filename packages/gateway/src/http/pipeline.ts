// The edge every route shares, installed once on the app before any route: the error body, the
// JSON parser with its bounds, backpressure, the zod schema compilers, the per-route auth hook and
// the check that every API route declares its answer.
import type { FastifyInstance, RouteOptions } from 'fastify';
import type { Authenticate } from '../api/authenticate.js';
import type { DatabaseAvailability } from '../storage/db-availability.js';
import { requireAnswerSchemas } from './answer-schemas.js';
import { installAuth } from './auth.js';
import type { CallerCountingDb } from './db-callers.js';
import { installErrorHandler } from './errors.js';
import { installJsonBodyParser, installUrlTextCheck } from './json-body.js';
import { installLoadShedding } from './load-shedding.js';
import { serializerCompiler, validatorCompiler } from './validation.js';

/** Returns the list of every route registered after it (tests walk it). */
export function installPipeline(
  app: FastifyInstance,
  authenticate: Authenticate,
  backpressure?: {
    db: CallerCountingDb;
    queueLimit: number;
    /** Refuses requests at once while the database cannot be reached. */
    availability?: DatabaseAvailability;
  },
): readonly RouteOptions[] {
  installErrorHandler(app);
  // Before the auth hook: a refused request costs no query.
  if (backpressure) {
    installLoadShedding(app, backpressure.db, backpressure.queueLimit, backpressure.availability);
  }
  installJsonBodyParser(app);
  installUrlTextCheck(app);
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  const routes = installAuth(app, authenticate);
  requireAnswerSchemas(app, routes);
  return routes;
}
