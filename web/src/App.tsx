// The app's providers around the router. The browser uses BrowserRouter; the build renders the
// landing page with a static router (prerender.tsx), through the same tree.
import type { ComponentType, ReactNode } from 'react';
import { BrowserRouter } from 'react-router';
import { AppErrorBoundary } from './components/ErrorPage.js';
import { AuthProvider } from './hooks/useAuth.js';
import { AppRoutes } from './routes.js';
import './i18n.js';
import './styles.css';
import { ToastProvider } from './components/ui/Toast.js';

export function App({
  Router = BrowserRouter,
}: {
  Router?: ComponentType<{ children: ReactNode }>;
}) {
  return (
    <AuthProvider>
      <ToastProvider>
        <Router>
          <AppErrorBoundary>
            <AppRoutes />
          </AppErrorBoundary>
        </Router>
      </ToastProvider>
    </AuthProvider>
  );
}
