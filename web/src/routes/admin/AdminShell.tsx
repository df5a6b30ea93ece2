// The admin shell: tab links showing the active one, and content as wide as the screen allows.

import { withoutTrailingSlashes } from '@blockcatch/sdk';
import { Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { NavLink, Outlet, useLocation } from 'react-router';
import { LoadingOverlay } from '../../components/LoadingOverlay.js';
import '../../components/admin/admin.css';

/** Each tab, and the pages that belong to it (the message screens are tools). */
const TABS = [
  ['/admin', 'admin.tabs.dashboard', []],
  ['/admin/users', 'admin.tabs.users', ['/admin/users/']],
  ['/admin/billing', 'admin.tabs.billing', []],
  ['/admin/invitations', 'admin.tabs.invitations', []],
  ['/admin/tools', 'admin.tabs.tools', ['/admin/notifications', '/admin/leads']],
] as const;

export default function AdminShell() {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const here = withoutTrailingSlashes(pathname) || '/';
  return (
    <div className="admin-shell">
      <nav className="admin-tabs" aria-label={t('nav.admin')}>
        {TABS.map(([to, key, under]) => {
          const active = here === to || under.some((prefix) => here.startsWith(prefix));
          return (
            <NavLink
              key={to}
              to={to}
              end
              className={active ? 'active' : undefined}
              aria-current={active ? 'page' : undefined}
            >
              {t(key)}
            </NavLink>
          );
        })}
      </nav>
      <div className="admin-content">
        <Suspense fallback={<LoadingOverlay />}>
          <Outlet />
        </Suspense>
      </div>
    </div>
  );
}
