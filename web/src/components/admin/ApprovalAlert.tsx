// The approver's alert: on every admin screen, how many sends wait for their decision, with a link
// to review them. Shown only to admins who may decide at least one (never for their own sends).
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { adminQueries } from '../../lib/queries.js';

export function ApprovalAlert() {
  const { t } = useTranslation();
  const approvals = useQuery(adminQueries.approvals());
  const waiting = approvals.data?.Items.filter((item) => item.canDecide).length ?? 0;
  if (waiting === 0) return null;
  return (
    <p className="banner banner-warning" role="alert" data-testid="approval-alert">
      {t('admin.approvals.alert', { count: waiting })}{' '}
      <Link to="/admin/approvals">{t('admin.approvals.review')}</Link>
    </p>
  );
}
