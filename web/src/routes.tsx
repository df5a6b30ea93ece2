// Every route of the web app. Each page is its own lazy chunk; admin pages never load
// for drivers. The admin group is guarded once, at its shell.
import { type ComponentType, lazy } from 'react';
import { createBrowserRouter, type RouteObject } from 'react-router';
import { ErrorPage } from './components/ErrorPage.js';
import { RequireAdmin, RequireSession, SetupRedirect } from './components/Guards.js';
import { Shell } from './components/Shell.js';

type Loader = () => Promise<{ default: ComponentType }>;
/**
 * A lazy page inside the server-data provider. TanStack Query arrives with the first such page,
 * so the landing page (`plainPage`) loads without it.
 */
const page = (load: Loader) => {
  const Page = lazy(async () => {
    const [{ default: Screen }, { QueryProvider }] = await Promise.all([
      load(),
      import('./lib/queryClient.js'),
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
const plainPage = (load: Loader) => {
  const Page = lazy(load);
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

export const routes: RouteObject[] = [
  {
    path: '/',
    element: <Shell />,
    errorElement: <ErrorPage />,
    children: [
      {
        index: true,
        element: (
          <SetupRedirect step="entry">
            {plainPage(() => import('./routes/public/LandingPage.js'))}
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
        ],
      },
      { path: '*', element: <ErrorPage notFound /> },
    ],
  },
];

export const createRouter = () => createBrowserRouter(routes);
