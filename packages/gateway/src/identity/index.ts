// Cognito-compatible identity: builds the user pool over the database and hands the rest of the
// gateway its routes, id-token verification and account seeding.
import type { GatewayConfig } from '../config.js';
import { unauthenticated } from '../http/errors.js';
import { findLiveSession } from '../storage/accounts.js';
import type { Db } from '../storage/db.js';
import { createLimiter } from './limits.js';
import { ensureAccount, type PoolContext } from './operations.js';
import { registerIdentityRoutes } from './routes.js';
import { loadSigningKey, verifyToken } from './tokens.js';
import type { CodeSender, Identity, IdTokenClaims } from './types.js';

export async function createIdentity(deps: {
  db: Db;
  config: GatewayConfig;
  sendCode: CodeSender;
  /** Epoch ms; tests move it to expire codes and tokens. */
  now?: () => number;
  /** The tokens' `iss`; every process on one database must use the same one (default: from config). */
  issuer?: string;
  /** Told of every new session with its id token and the caller's address (the audit trail). */
  onSignIn?: (idToken: string, ip: string) => Promise<void>;
}): Promise<Identity> {
  const { db, config } = deps;
  const now = deps.now ?? Date.now;
  const key = await loadSigningKey(db, now());
  const ctx: PoolContext = {
    db,
    key,
    tokens: {
      issuer: deps.issuer ?? issuerFor(config),
      clientId: config.clientId,
      ttl: config.idTokenTtl,
    },
    poolName: config.userPoolId.slice(config.userPoolId.indexOf('_') + 1),
    sendCode: deps.sendCode,
    limits: createLimiter(db, config.identityLimits, now),
    now,
    onSignIn: deps.onSignIn,
  };

  return {
    registerRoutes: (app) => registerIdentityRoutes(app, ctx, config.userPoolId),

    async verifyIdToken(token) {
      const result = await verifyToken(key, ctx.tokens, token, 'id', now());
      if (!result.ok) {
        throw result.failure === 'expired'
          ? unauthenticated('The id token has expired. Sign in again.')
          : unauthenticated();
      }
      const claims = result.payload;
      // Signed out (GlobalSignOut, RevokeToken, password reset) or deleted: the token is dead.
      const account = await findLiveSession(db, String(claims.origin_jti), String(claims.sub));
      if (!account) throw unauthenticated();
      return {
        sub: account.id,
        'cognito:username': account.username,
        // The number the account has now, not the one the token was issued with.
        phone_number: account.attributes.phone_number ?? account.username,
        phone_number_verified: claims.phone_number_verified === true,
        ...(typeof claims.name === 'string' ? { name: claims.name } : {}),
        token_use: 'id',
        exp: Number(claims.exp),
        iat: Number(claims.iat),
      } satisfies IdTokenClaims;
    },

    ensureAccount: (input) => ensureAccount(ctx, input),
  };
}

/**
 * The tokens' `iss`: BLOCKCATCH_PUBLIC_URL plus the pool id, so every process of a deployment
 * signs and accepts the same issuer; without it, the listen address.
 */
function issuerFor(config: Pick<GatewayConfig, 'publicUrl' | 'host' | 'port' | 'userPoolId'>) {
  return `${config.publicUrl ?? `http://${config.host}:${config.port}`}/${config.userPoolId}`;
}
