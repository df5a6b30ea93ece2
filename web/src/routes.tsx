// Every route of the web app. The landing page is in the first load, so / paints without a
// second round trip; every other page is its own lazy chunk, and admin pages never load for
// drivers. The admin group is guarded once, at its shell. Declarative routes (useRoutes): the
// app uses no loaders or actions, and the data router would add half of react-router to the
// first load.
import {
  type ComponentType,
  lazy,
  type ReactElement,
  type ReactNode,
  useEffect,
  useReducer,
} from 'react';
import { matchRoutes, type RouteObject, useRoutes } from 'react-router';
import { ErrorPage } from './components/ErrorPage.js';
import { RequireAdmin, RequireSession, SetupRedirect } from './components/Guards.js';
import { LoadingOverlay } from './components/LoadingOverlay.js';
import { Shell } from './components/Shell.js';
import LandingPage from './features/public/LandingPage.js';
import { loadPageCatalogue } from './i18n.js';

type Loader = () => Promise<{ default: ComponentType }>;
/** What a lazy page's route keeps in its `handle`: a way to start fetching its code early. */
interface PageHandle {
  preload: () => Promise<unknown>;
}

/** A lazy page's code, once it is in. */
interface PageCode {
  Screen: ComponentType;
  QueryProvider: ComponentType<{ children: ReactNode }>;
}
interface LazyPage {
  code: PageCode | null;
  /** The fetch of the code, once something asked for it; null again if it failed. */
  loading: Promise<unknown> | null;
  /** Whether the fetch began before the page rendered (preloadPage), not through React.lazy. */
  early: boolean;
  preload: () => Promise<unknown>;
  Lazy: ComponentType<{ of: LazyPage }>;
}

function LoadedPage({ of }: { of: LazyPage }) {
  // Rendered only once `of.code` is in: by Page, or by React.lazy after preload().
  const { Screen, QueryProvider } = of.code!;
  return (
    <QueryProvider>
      <Screen />
    </QueryProvider>
  );
}

/**
 * A page whose code is in renders at once. One whose code was asked for before it rendered (the
 * page the app opened on, fetched beside the app's own code) shows the loading overlay until it
 * lands, then renders: through React.lazy, React would hold it behind the overlay for at least
 * 300 ms (its reveal throttle for a page that suspended), however soon it arrived. Any other page
 * goes through React.lazy, so a link to it keeps the current page on screen while it loads.
 */
function Page({ of }: { of: LazyPage }) {
  const [, landed] = useReducer((n: number) => n + 1, 0);
  const waiting = of.code === null && of.early ? of.loading : null;
  useEffect(() => {
    if (!waiting) return;
    let live = true;
    const rerender = () => live && landed();
    waiting.then(rerender, rerender);
    return () => {
      live = false;
    };
  }, [waiting]);
  if (of.code) return <LoadedPage of={of} />;
  if (waiting) return <LoadingOverlay />;
  return <of.Lazy of={of} />;
}

/**
 * A lazy page inside the server-data provider. TanStack Query and the screens' texts arrive with
 * the first such page, so the landing page loads without them.
 */
const page = (load: Loader): { element: ReactElement; handle: PageHandle } => {
  const of: LazyPage = {
    code: null,
    loading: null,
    early: false,
    preload: () => {
      of.loading ??= Promise.all([
        load(),
        import('./lib/queryClient.js'),
        loadPageCatalogue(),
      ]).then(
        ([{ default: Screen }, { QueryProvider }]) => {
          of.code = { Screen, QueryProvider };
        },
        (error: unknown) => {
          // Not kept: React.lazy asks again, and its failure is the page's to show.
          of.loading = null;
          throw error;
        },
      );
      return of.loading;
    },
    Lazy: lazy(async () => {
      await of.preload();
      return { default: LoadedPage };
    }),
  };
  const early = () => {
    of.early = of.code === null;
    return of.preload();
  };
  return { element: <Page of={of} />, handle: { preload: early } };
};

const open = (path: string, load: Loader): RouteObject => ({ path, ...page(load) });
const entry = (path: string, load: Loader): RouteObject => {
  const { element, handle } = page(load);
  return { path, handle, element: <SetupRedirect step="entry">{element}</SetupRedirect> };
};
const driver = (
  path: string,
  step: Parameters<typeof SetupRedirect>[0]['step'] | null,
  load: Loader,
): RouteObject => {
  const { element, handle } = page(load);
  return {
    path,
    handle,
    element: (
      <RequireSession>
        {step ? <SetupRedirect step={step}>{element}</SetupRedirect> : element}
      </RequireSession>
    ),
  };
};
const adminShell = page(() => import('./features/admin-home/AdminShell.js'));

const routes: RouteObject[] = [
  {
    path: '/',
    element: <Shell />,
    children: [
      {
        index: true,
        element: (
          <SetupRedirect step="entry">
            <LandingPage />
          </SetupRedirect>
        ),
      },
      entry('login', () => import('./features/auth/LoginPage.js')),
      entry('register', () => import('./features/auth/RegisterPage.js')),
      open('forgot-password', () => import('./features/auth/ForgotPasswordPage.js')),
      open('confirm-account', () => import('./features/auth/ConfirmAccountPage.js')),
      open('faqs', () => import('./features/public/FaqsPage.js')),
      open('terms', () => import('./features/public/TermsPage.js')),
      open('contact', () => import('./features/support/ContactPage.js')),
      driver('payment', '/payment', () => import('./features/billing/PaymentPage.js')),
      // At the payment step: a driver whose renewal failed must reach it to update the card.
      driver('flex/billing', '/payment', () => import('./features/billing/BillingPage.js')),
      driver('flex/login', null, () => import('./features/connect/ConnectPage.js')),
      driver('flex/otp', null, () => import('./features/connect/OtpPage.js')),
      driver('flex/confirm', null, () => import('./features/connect/ConnectedPage.js')),
      driver('flex/settings', '/flex/settings', () => import('./features/filters/SettingsPage.js')),
      driver(
        'flex/dashboard',
        '/flex/dashboard',
        () => import('./features/dashboard/DashboardPage.js'),
      ),
      driver(
        'flex/invite',
        '/flex/dashboard',
        () => import('./features/invitations/InvitePage.js'),
      ),
      driver(
        'flex/invite/:phoneNumber',
        '/flex/dashboard',
        () => import('./features/invitations/InvitePage.js'),
      ),
      driver(
        'flex/calendar',
        '/flex/dashboard',
        () => import('./features/calendar/CalendarPage.js'),
      ),
      driver(
        'flex/calendar/:phoneNumber',
        '/flex/dashboard',
        () => import('./features/calendar/CalendarPage.js'),
      ),
      driver(
        'flex/reseller',
        '/flex/dashboard',
        () => import('./features/reseller/ResellerPage.js'),
      ),
      {
        path: 'admin',
        handle: adminShell.handle,
        element: <RequireAdmin>{adminShell.element}</RequireAdmin>,
        children: [
          { index: true, ...page(() => import('./features/admin-home/AdminDashboardPage.js')) },
          open('users', () => import('./features/users/UsersPage.js')),
          open('users/:id', () => import('./features/users/UserDetailPage.js')),
          open('users/:id/dashboard', () => import('./features/users/UserDashboardPage.js')),
          open('tools', () => import('./features/sending/ToolsPage.js')),
          open('billing', () => import('./features/billing/AdminBillingPage.js')),
          open('invitations', () => import('./features/invitations/InvitationsPage.js')),
          open('notifications', () => import('./features/sending/NotificationsPage.js')),
          open('leads', () => import('./features/invitations/LeadsPage.js')),
          open('tokens', () => import('./features/tokens/TokensPage.js')),
          open('audit', () => import('./features/audit/AuditPage.js')),
          open('approvals', () => import('./features/sending/ApprovalsPage.js')),
          open('sends', () => import('./features/sending/SendsPage.js')),
          open('support', () => import('./features/support/SupportInboxPage.js')),
        ],
      },
      { path: '*', element: <ErrorPage notFound /> },
    ],
  },
];

/**
 * Starts fetching the code of the pages `pathname` shows (the admin shell and its page, say). A
 * failure is the page's to show when it renders.
 */
export function preloadPage(pathname: string): void {
  for (const { route } of matchRoutes(routes, pathname) ?? []) {
    (route.handle as PageHandle | undefined)?.preload().catch(() => {});
  }
}

/** The page for the current location; render inside a router. */
export function AppRoutes() {
  return useRoutes(routes);
}
