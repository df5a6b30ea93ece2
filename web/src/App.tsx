// The app's providers around the router.
import { BrowserRouter } from 'react-router';
import { AppErrorBoundary } from './components/ErrorPage.js';
import { AuthProvider } from './hooks/useAuth.js';
import { ToastProvider } from './hooks/useToast.js';
import { AppRoutes } from './routes.js';
import './i18n.js';
import './styles.css';

export function App() {
  return (
    <AuthProvider>
      <ToastProvider>
        <BrowserRouter>
          <AppErrorBoundary>
            <AppRoutes />
          </AppErrorBoundary>
        </BrowserRouter>
      </ToastProvider>
    </AuthProvider>
  );
}
