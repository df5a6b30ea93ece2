// The app's providers around the router.
import { RouterProvider } from 'react-router';
import { AuthProvider } from './hooks/useAuth.js';
import { ToastProvider } from './hooks/useToast.js';
import { createRouter } from './routes.js';
import './i18n.js';
import './styles.css';

const router = createRouter();

export function App() {
  return (
    <AuthProvider>
      <ToastProvider>
        <RouterProvider router={router} />
      </ToastProvider>
    </AuthProvider>
  );
}
