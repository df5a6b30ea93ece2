// The edge every route shares, installed once on the app before any route: the error body, the
// JSON parser with its bounds, the zod schema compilers, and the per-route auth hook.
import type { FastifyInstance } from 'fastify';
import type { Authenticate } from '../api/authenticate.js';
import { installAuth } from './auth.js';
import { installErrorHandler } from './errors.js';
import { installJsonBodyParser, installUrlTextCheck } from './json-body.js';
import { serializerCompiler, validatorCompiler } from './validation.js';

export function installPipeline(app: FastifyInstance, authenticate: Authenticate): void {
  installErrorHandler(app);
  installJsonBodyParser(app);
  installUrlTextCheck(app);
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  installAuth(app, authenticate);
}
