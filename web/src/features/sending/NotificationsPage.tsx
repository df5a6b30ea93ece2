// /admin/notifications: the recent sends with their delivery, and 'Send SMS to
// unpaid invitations' (step 1 filters, step 2 review).
import type { InviteeFilters, MergedInvitee } from '@blockcatch/sdk';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { DateField } from '../../components/admin/DateField.js';
import { Spinner } from '../../components/admin/Spinner.js';
import { TriStateSelect } from '../../components/admin/TriStateSelect.js';
import { useAdminRole } from '../../hooks/admin/useAdminRole.js';
import { useFlexUsers, useInvitations, useTemplates } from '../../hooks/admin/useAdminTables.js';
import { buildInviteeList } from '../../lib/admin/invitee-list.js';
import { composedFrom, MessageComposer } from './MessageComposer.js';
import { RecentSends } from './RecentSends.js';
import { ReviewStep } from './ReviewStep.js';
import { SendAtField } from './SendAtField.js';
import { SendResultLine } from './SendResultLine.js';
import { useMessagingFlow } from './useMessagingFlow.js';

const NO_FILTERS: InviteeFilters = {
  registered: 'all',
  proxyInstalled: 'all',
  setupComplete: 'all',
};

export default function NotificationsPage() {
  const { t } = useTranslation();
  return (
    <main className="page admin-page">
      <p>
        <Link to="/admin">{t('admin.notifications.goBack')}</Link>
      </p>
      <h1>{t('admin.notifications.title')}</h1>
      <RecentSends />
      <UnpaidInvitations />
    </main>
  );
}

function UnpaidInvitations() {
  const { t } = useTranslation();
  const role = useAdminRole();
  const users = useFlexUsers();
  const invitations = useInvitations();
  const templates = useTemplates(role.billingDetails).data;
  const flow = useMessagingFlow<InviteeFilters, MergedInvitee>(NO_FILTERS);
  const { filters, draft, setDraft, review, result, sending } = flow;
  const userRows = users.data;
  const invitationRows = invitations.data;
  const list = useMemo(
    () => buildInviteeList(userRows, invitationRows, filters),
    [userRows, invitationRows, filters],
  );
  const composed = composedFrom(draft, templates);
  const set = flow.setFilter;
  const failed = users.status === 'error' || invitations.status === 'error';

  return (
    <section className="admin-section" aria-labelledby="unpaid-heading">
      <h2 id="unpaid-heading">{t('admin.notifications.unpaidInvitations')}</h2>
      {failed ? (
        <p className="error-text">{t('admin.notifications.loadFailed')}</p>
      ) : list.status === 'loading' ? (
        <Spinner />
      ) : list.status === 'empty' ? (
        <p>{t('admin.notifications.noInvitations')}</p>
      ) : review ? (
        <ReviewStep
          key={review.id}
          reviewId={review.id}
          rows={review.rows}
          composed={review.composed}
          sending={sending}
          onCancel={flow.cancelReview}
          onSend={flow.sendSelected}
          sendAt={review.sendAt}
          localTime={review.localTime}
          notificationColumns
        />
      ) : (
        <form
          className="send-form"
          aria-label={t('admin.notifications.step1')}
          onSubmit={(e) => {
            e.preventDefault();
            if (!composed) return;
            flow.startReview(list.invitees, composed);
          }}
        >
          <SendResultLine result={result} />
          <div className="filter-grid">
            <DateField
              label={t('admin.notifications.invitedFrom')}
              value={filters.invitedFrom}
              onChange={(invitedFrom) => set({ invitedFrom })}
              clearable
            />
            <DateField
              label={t('admin.notifications.invitedTo')}
              value={filters.invitedTo}
              onChange={(invitedTo) => set({ invitedTo })}
              clearable
            />
            <TriStateSelect
              label={t('admin.notifications.registered')}
              value={filters.registered ?? 'all'}
              onChange={(registered) => set({ registered })}
            />
            <TriStateSelect
              label={t('admin.notifications.proxyInstalled')}
              value={filters.proxyInstalled ?? 'all'}
              onChange={(proxyInstalled) => set({ proxyInstalled })}
            />
            <TriStateSelect
              label={t('admin.notifications.setupComplete')}
              value={filters.setupComplete ?? 'all'}
              onChange={(setupComplete) => set({ setupComplete })}
            />
          </div>
          <p className="hint" data-testid="invitee-count">
            {t('admin.notifications.matching', { count: list.invitees.length })}
          </p>
          <MessageComposer
            draft={draft}
            onChange={setDraft}
            templates={templates}
            whatsappAllowed={role.billingDetails}
            limitControl="fixed"
          />
          <SendAtField
            value={flow.sendAtText}
            onChange={flow.setSendAtText}
            invalid={!flow.sendAtValid}
            localTime={flow.localTime}
            onLocalTime={flow.setLocalTime}
          />
          <div className="actions">
            <button type="submit" className="primary" disabled={!composed || !flow.sendAtValid}>
              {t('common.review')}
            </button>
          </div>
        </form>
      )}
    </section>
  );
}
