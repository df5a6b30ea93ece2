// /admin/notifications: the sends started from this tab with their progress, and 'Send SMS to
// unpaid invitations' (step 1 filters, step 2 review).
import type { InviteeFilters, MergedInvitee } from '@blockcatch/sdk';
import { useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { DateField } from '../../components/admin/DateField.js';
import {
  composedFrom,
  EMPTY_DRAFT,
  MessageComposer,
  type MessageDraft,
} from '../../components/admin/MessageComposer.js';
import { MessagePreview } from '../../components/admin/MessagePreview.js';
import { RecentSends } from '../../components/admin/RecentSends.js';
import { ReviewStep } from '../../components/admin/ReviewStep.js';
import { Spinner } from '../../components/admin/Spinner.js';
import { TriStateSelect } from '../../components/admin/TriStateSelect.js';
import { buildInviteeList } from '../../hooks/admin/invitee-list.js';
import { buildSendRequest, type ComposedMessage } from '../../hooks/admin/send-request.js';
import { useAdminRole } from '../../hooks/admin/useAdminRole.js';
import { useFlexUsers, useInvitations, useTemplates } from '../../hooks/admin/useAdminTables.js';
import { dataOf } from '../../hooks/admin/useGatewayQuery.js';
import { useSendMessage } from '../../hooks/admin/useSendMessage.js';

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

interface Review {
  id: number;
  rows: MergedInvitee[];
  composed: ComposedMessage;
}

function UnpaidInvitations() {
  const { t } = useTranslation();
  const role = useAdminRole();
  const users = useFlexUsers();
  const invitations = useInvitations();
  const templates = dataOf(useTemplates(role.billingDetails));
  const [filters, setFilters] = useState<InviteeFilters>(NO_FILTERS);
  const [draft, setDraft] = useState<MessageDraft>(EMPTY_DRAFT);
  const [review, setReview] = useState<Review | null>(null);
  const [result, setResult] = useState<{ ok: boolean; text: string } | null>(null);
  const reviews = useRef(0);
  const { send, sending } = useSendMessage(review?.id ?? 0);
  const userRows = dataOf(users);
  const invitationRows = dataOf(invitations);
  const list = useMemo(
    () => buildInviteeList(userRows, invitationRows, filters),
    [userRows, invitationRows, filters],
  );
  const composed = composedFrom(draft, templates);
  const set = (patch: Partial<InviteeFilters>) => setFilters((f) => ({ ...f, ...patch }));
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
          rows={review.rows}
          message={<MessagePreview composed={review.composed} />}
          sending={sending}
          onCancel={() => setReview(null)}
          onSend={async (selected) => {
            const outcome = await send(buildSendRequest(review.composed, review.rows, selected));
            if (!outcome) return;
            setResult(outcome);
            if (outcome.ok) {
              setFilters(NO_FILTERS);
              setDraft(EMPTY_DRAFT);
              setReview(null);
            }
          }}
        />
      ) : (
        <form
          className="send-form"
          aria-label={t('admin.notifications.step1')}
          onSubmit={(e) => {
            e.preventDefault();
            if (!composed) return;
            setResult(null);
            reviews.current += 1;
            setReview({ id: reviews.current, rows: list.invitees, composed });
          }}
        >
          {result && (
            <p className={result.ok ? 'send-result ok-text' : 'send-result error-text'}>
              {result.text}
            </p>
          )}
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
          <div className="actions">
            <button type="submit" className="primary" disabled={!composed}>
              {t('common.review')}
            </button>
          </div>
        </form>
      )}
    </section>
  );
}
