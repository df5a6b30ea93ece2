// The admin shell: tab links showing the active one, and content as wide as the screen allows.
// A tab the admin's role cannot use (Billing without billing details) is not shown.

import { withoutTrailingSlashes } from '@blockcatch/sdk';
import { Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { NavLink, Outlet, useLocation } from 'react-router';
import { ApprovalAlert } from '../../components/admin/ApprovalAlert.js';
import { LoadingOverlay } from '../../components/LoadingOverlay.js';
import { type AdminRole, useAdminRole } from '../../hooks/admin/useAdminRole.js';
import '../../components/admin/admin.css';

/** Each tab, the pages that belong to it (the message screens are tools), and who may use it. */
const TABS: readonly (readonly [
  string,
  string,
  readonly string[],
  (role: AdminRole) => boolean,
])[] = [
  ['/admin', 'admin.tabs.dashboard', [], () => true],
  ['/admin/users', 'admin.tabs.users', ['/admin/users/'], () => true],
  ['/admin/billing', 'admin.tabs.billing', [], (role) => role.billingDetails],
  ['/admin/invitations', 'admin.tabs.invitations', [], () => true],
  ['/admin/support', 'admin.tabs.support', [], () => true],
  [
    '/admin/tools',
    'admin.tabs.tools',
    ['/admin/notifications', '/admin/leads', '/admin/tokens'],
    () => true,
  ],
  ['/admin/sends', 'admin.tabs.sends', [], () => true],
  ['/admin/approvals', 'admin.tabs.approvals', [], () => true],
  ['/admin/audit', 'admin.tabs.audit', [], (role) => role.isOwner],
];

export default function AdminShell() {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const role = useAdminRole();
  const here = withoutTrailingSlashes(pathname) || '/';
  return (
    <div className="admin-shell">
      <nav className="admin-tabs" aria-label={t('nav.admin')}>
        {TABS.filter(([, , , allowed]) => allowed(role)).map(([to, key, under]) => {
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
        <ApprovalAlert />
        <Suspense fallback={<LoadingOverlay />}>
          <Outlet />
        </Suspense>
      </div>
    </div>
  );
}
