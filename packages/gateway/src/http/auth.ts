// Who may call a route is declared on the route: `config: { auth: 'admin' }`. One onRequest hook
// reads the token once, checks the role and sets `request.principal`; handlers never authenticate.
// A route without a declaration stops the gateway at start-up, so none is left open by omission.
import type { FastifyInstance, FastifyRequest, RouteOptions } from 'fastify';
import {
  type Authenticate,
  isOwner,
  type Principal,
  requireAdmin,
  requireBillingDetails,
} from '../api/authenticate.js';
import { forbidden, unauthenticated } from './errors.js';

/**
 * - `public`: anyone; webhooks check their own signatures.
 * - `user`: any signed-in user (drivers, and staff on their own account).
 * - `admin`: staff (`is_admin`).
 * - `billing`: staff with the billing-details permission.
 * - `owner`: staff with the owner role.
 */
export type AuthPolicy = 'public' | 'user' | 'admin' | 'billing' | 'owner';

declare module 'fastify' {
  interface FastifyContextConfig {
    auth?: AuthPolicy;
  }
  interface FastifyRequest {
    /** The signed-in caller; reading it on a `public` route is a 401. */
    readonly principal: Principal;
  }
}

const kPrincipal = Symbol('principal');
type WithPrincipal = FastifyRequest & { [kPrincipal]?: Principal | null };

/** Returns every route the app registers, as registered: the server's own route list. */
export function installAuth(
  app: FastifyInstance,
  authenticate: Authenticate,
): readonly RouteOptions[] {
  app.decorateRequest(kPrincipal, null);
  app.decorateRequest('principal', {
    getter(this: WithPrincipal) {
      const principal = this[kPrincipal];
      if (!principal) throw unauthenticated();
      return principal;
    },
  });

  const routes: RouteOptions[] = [];
  app.addHook('onRoute', (route) => {
    routes.push(route);
  });
  // At ready, after every plugin's onRoute hooks ran (a scope may mark its routes public).
  app.addHook('onReady', async () => {
    const open = routes.filter((route) => route.config?.auth === undefined);
    if (open.length > 0) {
      const names = open.map((r) => `${[r.method].flat().join(',')} ${r.url}`);
      throw new Error(
        `Routes without an auth declaration (config.auth): ${names.join('; ')}. Declare who may call each, 'public' included.`,
      );
    }
  });

  // A public route (the status checks, the web app's files) goes on without a promise to wait on.
  app.addHook('onRequest', (request, _reply, done) => {
    const policy = request.routeOptions.config.auth;
    if (policy === undefined || policy === 'public') {
      done();
      return;
    }
    authenticate(request).then(
      (principal) => {
        // Caught here and `done` called once, outside: the rest of the request runs inside it.
        let refused: Error | undefined;
        try {
          enforce(policy, principal);
          (request as WithPrincipal)[kPrincipal] = principal;
        } catch (error) {
          refused = error as Error;
        }
        done(refused);
      },
      (error: Error) => done(error),
    );
  });
  return routes;
}

function enforce(policy: Exclude<AuthPolicy, 'public'>, principal: Principal): void {
  switch (policy) {
    case 'user':
      break;
    case 'admin':
      requireAdmin(principal);
      break;
    case 'billing':
      requireBillingDetails(principal);
      break;
    case 'owner':
      if (!isOwner(principal)) throw forbidden('This needs the owner role.');
  }
}

/** Marks every route registered in `scope` (a plugin's static files, the API docs) public. */
export function markRoutesPublic(scope: FastifyInstance): void {
  scope.addHook('onRoute', (route) => {
    route.config = { ...route.config, auth: route.config?.auth ?? 'public' };
  });
}
