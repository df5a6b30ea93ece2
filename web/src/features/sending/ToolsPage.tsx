// /admin/tools: the Send SMS screen for the owner; other admins are told why it is not theirs
// and pointed at the unpaid-invitations screen they may use. Leads and tokens for machines are
// reached from here.
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useAdminRole } from '../../hooks/admin/useAdminRole.js';
import { SendSmsScreen } from './SendSmsScreen.js';

export default function ToolsPage() {
  const { t } = useTranslation();
  const { isOwner } = useAdminRole();
  return (
    <main className="page admin-page">
      <h1>{t('admin.tools.title')}</h1>
      <p>
        <Link to="/admin/notifications">{t('admin.tools.notificationsLink')}</Link>
        {' · '}
        <Link to="/admin/leads">{t('admin.tools.leadsLink')}</Link>
        {' · '}
        <Link to="/admin/tokens">{t('admin.tools.tokensLink')}</Link>
      </p>
      {isOwner ? (
        <SendSmsScreen />
      ) : (
        <section aria-labelledby="send-sms-locked">
          <h2 id="send-sms-locked">{t('admin.sendSms.title')}</h2>
          <p className="owner-only" data-testid="owner-only">
            {t('admin.tools.ownerOnly')}
          </p>
        </section>
      )}
    </main>
  );
}
