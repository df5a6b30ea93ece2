// The admin shell: tab links and a narrower content width on /admin routes.

import { Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { NavLink, Outlet } from 'react-router';
import { LoadingOverlay } from '../../components/LoadingOverlay.js';
import '../../components/admin/admin.css';

const TABS = [
  ['/admin', 'admin.tabs.dashboard', true],
  ['/admin/users', 'admin.tabs.users', false],
  ['/admin/billing', 'admin.tabs.billing', false],
  ['/admin/invitations', 'admin.tabs.invitations', false],
] as const;

export default function AdminShell() {
  const { t } = useTranslation();
  return (
    <div className="admin-shell">
      <nav className="admin-tabs" aria-label={t('nav.admin')}>
        {TABS.map(([to, key, end]) => (
          <NavLink key={to} to={to} end={end}>
            {t(key)}
          </NavLink>
        ))}
      </nav>
      <div className="admin-content">
        <Suspense fallback={<LoadingOverlay />}>
          <Outlet />
        </Suspense>
      </div>
    </div>
  );
}
