// Route guards (docs/product.md, 'Where a signed-in driver goes'): who may see a page, and where a signed-in driver belongs next.
import { nextRouteForUser, type SignedInRoute } from '@blockcatch/sdk';
import { type ReactNode, useEffect, useRef } from 'react';
import { Navigate, useLocation } from 'react-router';
import { useAuth } from '../hooks/useAuth.js';
import { loadSdk } from '../lib/loadSdk.js';
import { LoadingOverlay } from './LoadingOverlay.js';

/** Pages that need a session: anonymous visitors go to /. */
export function RequireSession({ children }: { children: ReactNode }) {
  const { state } = useAuth();
  if (state.status === 'loading') return <LoadingOverlay />;
  if (state.status === 'anonymous') return <Navigate to="/" replace />;
  return children;
}

/** Admin pages: a signed-in user who is missing or not an admin goes to /. */
export function RequireAdmin({ children }: { children: ReactNode }) {
  const { state } = useAuth();
  if (state.status === 'loading') return <LoadingOverlay />;
  if (state.status !== 'signed-in' || !state.user.isAdmin) return <Navigate to="/" replace />;
  return children;
}

const STEP_RANK: Record<SignedInRoute, number> = {
  '/confirm-account': 0,
  '/flex/login': 1,
  '/flex/settings': 2,
  '/payment': 3,
  '/flex/dashboard': 4,
};

/**
 * Sends a signed-in driver back to the first unfinished step when it comes before `step`, the
 * step this page belongs to. Entry pages (landing, sign-in) pass `step="entry"`: every signed-in
 * visitor moves on to where they belong. No redirect while the session is loading.
 */
export function SetupRedirect({
  children,
  step,
}: {
  children: ReactNode;
  step: SignedInRoute | 'entry';
}) {
  const { state } = useAuth();
  const location = useLocation();
  const resent = useRef(false);
  const target =
    state.status === 'signed-in'
      ? nextRouteForUser({ phoneVerified: state.session.phoneNumberVerified, user: state.user })
      : null;
  const redirect =
    target &&
    target !== location.pathname &&
    (step === 'entry' || STEP_RANK[target] < STEP_RANK[step])
      ? target
      : null;

  useEffect(() => {
    if (redirect !== '/confirm-account' || resent.current) return;
    resent.current = true;
    // A new code is sent before the redirect; a failure is only logged and the redirect still happens.
    loadSdk()
      .then(({ auth }) => auth.resendCode())
      .catch((error: unknown) => console.warn('Could not re-send the confirmation code', error));
  }, [redirect]);

  if (state.status === 'loading') return <LoadingOverlay />;
  if (!redirect) return children;
  if (redirect === '/confirm-account' && state.status === 'signed-in') {
    return <Navigate to={redirect} replace state={{ phoneNumber: state.session.phoneNumber }} />;
  }
  // /payment keeps the query string the visitor arrived with.
  const search = redirect === '/payment' ? location.search : '';
  return <Navigate to={`${redirect}${search}`} replace />;
}
