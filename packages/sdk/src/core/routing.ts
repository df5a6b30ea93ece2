// Where a signed-in driver belongs next: verified phone, connected account, saved filters, good
// standing, checked in that order (docs/product.md, 'Where a signed-in driver goes').
import type { SignedInUser } from './schemas/users.js';

export type SignedInRoute =
  | '/confirm-account'
  | '/flex/login'
  | '/flex/settings'
  | '/payment'
  | '/flex/dashboard';

export interface RoutingFacts {
  /** From the id token's `phone_number_verified` claim. */
  phoneVerified: boolean;
  user: Pick<SignedInUser, 'proxyInstalled' | 'setupComplete' | 'goodStanding'>;
}

/**
 * The first unmet step of a driver's setup, else the dashboard. The page the driver is on is not
 * considered here: callers redirect only when the answer differs from where they are.
 */
export function nextRouteForUser({ phoneVerified, user }: RoutingFacts): SignedInRoute {
  if (!phoneVerified) return '/confirm-account';
  if (!user.proxyInstalled) return '/flex/login';
  if (!user.setupComplete) return '/flex/settings';
  if (!user.goodStanding) return '/payment';
  return '/flex/dashboard';
}
