// Every route of the web app. The landing page is in the first load, so / paints without a
// second round trip; every other page is its own lazy chunk, and admin pages never load for
// drivers. The admin group is guarded once, at its shell. Declarative routes (useRoutes): the
// app uses no loaders or actions, and the data router would add half of react-router to the
// first load.
import { type ComponentType, lazy } from 'react';
import { type RouteObject, useRoutes } from 'react-router';
import { ErrorPage } from './components/ErrorPage.js';
import { RequireAdmin, RequireSession, SetupRedirect } from './components/Guards.js';
import { Shell } from './components/Shell.js';
import LandingPage from './features/public/LandingPage.js';
import { loadPageCatalogue } from './i18n.js';

type Loader = () => Promise<{ default: ComponentType }>;
/**
 * A lazy page inside the server-data provider. TanStack Query and the screens' texts arrive with
 * the first such page, so the landing page loads without them.
 */
const page = (load: Loader) => {
  const Page = lazy(async () => {
    const [{ default: Screen }, { QueryProvider }] = await Promise.all([
      load(),
      import('./lib/queryClient.js'),
      loadPageCatalogue(),
    ]);
    return {
      default: () => (
        <QueryProvider>
          <Screen />
        </QueryProvider>
      ),
    };
  });
  return <Page />;
};

const open = (path: string, load: Loader): RouteObject => ({ path, element: page(load) });
const entry = (path: string, load: Loader): RouteObject => ({
  path,
  element: <SetupRedirect step="entry">{page(load)}</SetupRedirect>,
});
const driver = (
  path: string,
  step: Parameters<typeof SetupRedirect>[0]['step'] | null,
  load: Loader,
): RouteObject => ({
  path,
  element: (
    <RequireSession>
      {step ? <SetupRedirect step={step}>{page(load)}</SetupRedirect> : page(load)}
    </RequireSession>
  ),
});

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
        element: (
          <RequireAdmin>{page(() => import('./features/admin-home/AdminShell.js'))}</RequireAdmin>
        ),
        children: [
          {
            index: true,
            element: page(() => import('./features/admin-home/AdminDashboardPage.js')),
          },
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

/** The page for the current location; render inside a router. */
export function AppRoutes() {
  return useRoutes(routes);
}
