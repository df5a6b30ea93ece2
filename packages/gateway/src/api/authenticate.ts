// Turns a request's Authorization header into the signed-in user, or a 401.
import type { FastifyRequest } from 'fastify';
import { forbidden, unauthenticated } from '../http/errors.js';
import type { Identity, IdTokenClaims } from '../identity/types.js';
import type { Queryable } from '../storage/db.js';
import type { UserRecord } from '../storage/user-record.js';
import { findUserByPhone } from '../storage/users.js';

export interface Principal {
  claims: IdTokenClaims;
  user: UserRecord;
  /** Set when the caller used a machine token (api-tokens.ts) instead of a session. */
  tokenId?: string;
}

export function createAuthenticator(
  db: Queryable,
  identity: Pick<Identity, 'verifyIdToken'>,
  /** The principal cache (http/principal-cache.ts) the gateway builds from its settings. */
  principalFor: (token: string, verify: () => Promise<Principal>) => Promise<Principal>,
  /** A machine token's caller (api-tokens.ts): never cached, so a revocation applies at once. */
  apiToken?: (token: string) => Promise<Principal>,
) {
  return async function authenticate(request: FastifyRequest): Promise<Principal> {
    const header = request.headers.authorization;
    if (!header) throw unauthenticated();
    // The web client sends the bare id token, as the original clients do; `Bearer` is accepted too.
    const token = (header.startsWith('Bearer ') ? header.slice(7) : header).trim();
    if (!token) throw unauthenticated();
    if (apiToken && token.startsWith('bct_')) return apiToken(token);
    // Cached only while sessions, accounts and users are unchanged: a sign-out or an admin flag
    // taken away applies at once, in every process.
    return principalFor(token, async () => {
      const claims = await identity.verifyIdToken(token);
      // `claims.phone_number` is the number of the account `sub` names, read from the database by
      // verifyIdToken, never the token's own claim: a token outlives a phone change.
      const user = await findUserByPhone(db, 'flex', claims.phone_number);
      if (!user) throw unauthenticated();
      return { claims, user };
    });
  };
}

export type Authenticate = (request: FastifyRequest) => Promise<Principal>;

export function requireAdmin(principal: Principal): void {
  if (!principal.user.is_admin) throw forbidden('This needs an admin account.');
}

export function requireBillingDetails(principal: Principal): void {
  requireAdmin(principal);
  if (!principal.user.can_see_billing) {
    throw forbidden('This needs the billing-details permission.');
  }
}

export function isOwner(principal: Principal): boolean {
  return principal.user.is_admin && principal.user.role === 'owner';
}
