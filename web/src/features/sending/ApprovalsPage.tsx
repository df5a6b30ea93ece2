// /admin/approvals: the sends waiting for a second admin, each with the review its requester saw
// (count, message, schedule, cost); an approver approves or rejects with a note, and an owner sets
// the size above which a send waits and which admins may approve.

import { type Approver, HttpError, MAX_APPROVAL_NOTE, type PendingApproval } from '@blockcatch/sdk';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Spinner } from '../../components/admin/Spinner.js';
import { Button } from '../../components/ui/Button.js';
import { Checkbox } from '../../components/ui/Checkbox.js';
import { Input } from '../../components/ui/Input.js';
import { useAdminRole } from '../../hooks/admin/useAdminRole.js';
import { useFormat } from '../../hooks/useFormat.js';
import { errorMessage } from '../../lib/errorMessage.js';
import { adminQueries } from '../../lib/queries.js';
import { gateway } from '../../sdk.js';
import { sendQueries } from './queries.js';

export default function ApprovalsPage() {
  const { t } = useTranslation();
  const { isOwner } = useAdminRole();
  const approvals = useQuery(adminQueries.approvals());
  const data = approvals.data;
  return (
    <main className="page admin-page">
      <h1>{t('admin.approvals.title')}</h1>
      {approvals.isPending && <Spinner />}
      {approvals.error != null && <p className="error-text">{t('admin.approvals.loadFailed')}</p>}
      {data && (
        <>
          <p className="hint">{t('admin.approvals.rule', { count: data.threshold })}</p>
          {!data.canApprove && <p>{t('admin.approvals.noPermission')}</p>}
          {data.Items.length === 0 ? (
            <p data-testid="approvals-none">{t('admin.approvals.none')}</p>
          ) : (
            data.Items.map((item) => (
              <ApprovalCard key={item.jobId} item={item} canApprove={data.canApprove} />
            ))
          )}
          {isOwner && <ThresholdForm current={data.threshold} />}
          {isOwner && <ApproversSection />}
        </>
      )}
    </main>
  );
}

function ApprovalCard({ item, canApprove }: { item: PendingApproval; canApprove: boolean }) {
  const { t } = useTranslation();
  const fmt = useFormat();
  const noteId = useId();
  const client = useQueryClient();
  const [note, setNote] = useState('');
  const [noteMissing, setNoteMissing] = useState(false);
  const decide = useMutation({
    mutationFn: (decision: 'approve' | 'reject') =>
      decision === 'approve'
        ? gateway.approvals.approve(item.jobId, note.trim() || undefined)
        : gateway.approvals.reject(item.jobId, note.trim()),
    onSuccess: () => client.invalidateQueries({ queryKey: ['admin'] }),
  });
  return (
    <section
      className="admin-section approval-card"
      aria-label={t('admin.approvals.cardLabel', { name: item.requestedBy.name })}
      data-testid="approval-card"
    >
      <h2>
        {t('admin.approvals.requested', {
          name: item.requestedBy.name,
          when: fmt.dateTime(item.requestedAt),
        })}
      </h2>
      <p className="hint">{t(`admin.approvals.reason.${item.reason}`)}</p>
      <dl className="confirm-details">
        <dt>{t('admin.review.channel')}</dt>
        <dd>{item.channel === 'sms' ? t('admin.sendSms.sms') : t('admin.sendSms.whatsapp')}</dd>
        <dt>{t('admin.sendSms.message')}</dt>
        <dd className="message-text" data-testid="approval-message">
          {item.preview?.text ?? item.message}
        </dd>
        <dt>{t('admin.review.recipientsLabel')}</dt>
        <dd data-testid="approval-recipients">
          {t('admin.sendSms.recipients', { count: item.recipients })}
        </dd>
        <dt>{t('admin.review.whenLabel')}</dt>
        <dd>
          {item.sendAt === null ? t('admin.approvals.onApproval') : fmt.dateTime(item.sendAt)}
        </dd>
        <dt>{t('admin.review.costLabel')}</dt>
        <dd data-testid="approval-cost">{fmt.money(item.estimatedCost)}</dd>
      </dl>
      <div className="field">
        <label htmlFor={noteId}>{t('admin.approvals.note')}</label>
        <textarea
          id={noteId}
          value={note}
          maxLength={MAX_APPROVAL_NOTE}
          onChange={(e) => setNote(e.target.value)}
        />
      </div>
      {!item.canDecide && <p className="hint">{t('admin.approvals.notYours')}</p>}
      {noteMissing && (
        <p className="error-text" role="alert" data-testid="approval-error">
          {t('admin.approvals.noteRequired')}
        </p>
      )}
      {decide.error != null && (
        <p className="error-text" role="alert" data-testid="approval-error">
          {decide.error instanceof HttpError && decide.error.status === 403
            ? t(canApprove ? 'admin.approvals.refusedOwn' : 'admin.approvals.refusedPermission')
            : errorMessage(t, decide.error, t('admin.approvals.failed'))}
        </p>
      )}
      <div className="actions">
        <Button
          type="button"
          onClick={() => {
            setNoteMissing(note.trim() === '');
            if (note.trim() !== '') decide.mutate('reject');
          }}
          disabled={decide.isPending}
        >
          {t('admin.approvals.reject')}
        </Button>
        <Button
          type="button"
          variant="primary"
          onClick={() => {
            setNoteMissing(false);
            decide.mutate('approve');
          }}
          disabled={decide.isPending}
        >
          {t('admin.approvals.approve')}
        </Button>
      </div>
    </section>
  );
}

function ThresholdForm({ current }: { current: number }) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const [value, setValue] = useState(String(current));
  const save = useMutation({
    mutationFn: (threshold: number) => gateway.approvals.setThreshold(threshold),
    onSuccess: () => client.invalidateQueries({ queryKey: ['admin', 'approvals'] }),
  });
  const parsed = Number(value);
  const valid = Number.isInteger(parsed) && parsed >= 1 && parsed <= 10_000_000;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (valid) save.mutate(parsed);
  };
  return (
    <form className="admin-section" onSubmit={submit}>
      <Input
        label={t('admin.approvals.threshold')}
        value={value}
        inputMode="numeric"
        onChange={setValue}
        error={valid ? undefined : t('admin.approvals.thresholdInvalid')}
        suffix={t('admin.approvals.recipientsUnit')}
      />
      <Button type="submit" disabled={!valid || save.isPending}>
        {t('common.save')}
      </Button>
      {save.isSuccess && <p role="status">{t('admin.approvals.thresholdSaved')}</p>}
      {save.error != null && (
        <p className="error-text">{errorMessage(t, save.error, t('admin.approvals.failed'))}</p>
      )}
    </form>
  );
}

/** The owner's switch per admin: who besides the owners may decide a held send. */
function ApproversSection() {
  const { t } = useTranslation();
  const fmt = useFormat();
  const client = useQueryClient();
  const headingId = useId();
  const approvers = useQuery(sendQueries.approvers());
  const change = useMutation({
    mutationFn: ({ admin, canApprove }: { admin: Approver; canApprove: boolean }) =>
      gateway.approvals.setApprover(admin.phoneNumber, canApprove),
    onSuccess: () => client.invalidateQueries({ queryKey: ['admin', 'approvals'] }),
  });
  return (
    <section className="admin-section" aria-labelledby={headingId}>
      <h2 id={headingId}>{t('admin.approvals.approversTitle')}</h2>
      <p className="hint">{t('admin.approvals.approversHint')}</p>
      {approvers.isPending && <Spinner />}
      {approvers.error != null && (
        <p className="error-text">{t('admin.approvals.approversFailed')}</p>
      )}
      {approvers.data && (
        <ul className="approver-list" data-testid="approvers">
          {approvers.data.map((admin) => (
            <li key={admin.phoneNumber}>
              <Checkbox
                checked={admin.canApprove}
                disabled={admin.owner || change.isPending}
                onChange={(canApprove) => change.mutate({ admin, canApprove })}
                label={`${admin.name} · ${fmt.phone(admin.phoneNumber)}${admin.owner ? ` (${t('admin.approvals.owner')})` : ''}`}
              />
            </li>
          ))}
        </ul>
      )}
      {change.isSuccess && (
        <p role="status">
          {t(
            change.data.canApprove
              ? 'admin.approvals.approverSaved'
              : 'admin.approvals.approverRemoved',
            {
              name: change.data.name,
            },
          )}
        </p>
      )}
      {change.error != null && (
        <p className="error-text">
          {errorMessage(t, change.error, t('admin.approvals.approversFailed'))}
        </p>
      )}
    </section>
  );
}
