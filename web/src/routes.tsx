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
import { loadPageCatalogue } from './i18n.js';
import LandingPage from './routes/public/LandingPage.js';

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
      entry('login', () => import('./routes/auth/LoginPage.js')),
      entry('register', () => import('./routes/auth/RegisterPage.js')),
      open('forgot-password', () => import('./routes/auth/ForgotPasswordPage.js')),
      open('confirm-account', () => import('./routes/auth/ConfirmAccountPage.js')),
      open('faqs', () => import('./routes/public/FaqsPage.js')),
      open('terms', () => import('./routes/public/TermsPage.js')),
      open('contact', () => import('./routes/public/ContactPage.js')),
      driver('payment', '/payment', () => import('./routes/flex/PaymentPage.js')),
      // At the payment step: a driver whose renewal failed must reach it to update the card.
      driver('flex/billing', '/payment', () => import('./routes/flex/BillingPage.js')),
      driver('flex/login', null, () => import('./routes/flex/ConnectPage.js')),
      driver('flex/otp', null, () => import('./routes/flex/OtpPage.js')),
      driver('flex/confirm', null, () => import('./routes/flex/ConnectedPage.js')),
      driver('flex/settings', '/flex/settings', () => import('./routes/flex/SettingsPage.js')),
      driver('flex/dashboard', '/flex/dashboard', () => import('./routes/flex/DashboardPage.js')),
      driver('flex/invite', '/flex/dashboard', () => import('./routes/flex/InvitePage.js')),
      driver(
        'flex/invite/:phoneNumber',
        '/flex/dashboard',
        () => import('./routes/flex/InvitePage.js'),
      ),
      driver('flex/calendar', '/flex/dashboard', () => import('./routes/flex/CalendarPage.js')),
      driver(
        'flex/calendar/:phoneNumber',
        '/flex/dashboard',
        () => import('./routes/flex/CalendarPage.js'),
      ),
      driver('flex/reseller', '/flex/dashboard', () => import('./routes/flex/ResellerPage.js')),
      {
        path: 'admin',
        element: <RequireAdmin>{page(() => import('./routes/admin/AdminShell.js'))}</RequireAdmin>,
        children: [
          { index: true, element: page(() => import('./routes/admin/AdminDashboardPage.js')) },
          open('users', () => import('./routes/admin/UsersPage.js')),
          open('users/:id', () => import('./routes/admin/UserDetailPage.js')),
          open('users/:id/dashboard', () => import('./routes/admin/UserDashboardPage.js')),
          open('tools', () => import('./routes/admin/ToolsPage.js')),
          open('billing', () => import('./routes/admin/BillingPage.js')),
          open('invitations', () => import('./routes/admin/InvitationsPage.js')),
          open('notifications', () => import('./routes/admin/NotificationsPage.js')),
          open('leads', () => import('./routes/admin/LeadsPage.js')),
          open('tokens', () => import('./routes/admin/TokensPage.js')),
          open('audit', () => import('./routes/admin/AuditPage.js')),
          open('approvals', () => import('./routes/admin/ApprovalsPage.js')),
          open('sends', () => import('./routes/admin/SendsPage.js')),
          open('support', () => import('./routes/admin/SupportPage.js')),
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
