// The API of SPEC section 7: placeholder until the API module lands.
import type { FastifyInstance } from 'fastify';
import type { GatewayConfig } from '../config.js';
import type { Db } from '../storage/db.js';
import type { Authenticate } from './authenticate.js';

export function registerApi(
  _app: FastifyInstance,
  _deps: { db: Db; config: GatewayConfig; authenticate: Authenticate },
): void {
  throw new Error('api: not built yet');
}
