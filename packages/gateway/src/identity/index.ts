// Cognito-compatible identity: placeholder until the identity module lands.
import type { GatewayConfig } from '../config.js';
import type { Db } from '../storage/db.js';
import type { CodeSender, Identity } from './types.js';

export async function createIdentity(_deps: {
  db: Db;
  config: GatewayConfig;
  sendCode: CodeSender;
}): Promise<Identity> {
  throw new Error('identity: not built yet');
}
