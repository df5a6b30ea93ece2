// Step 2 of both send screens: recipient count, the message, search, the checkbox table, paging,
// Cancel and Send (with its confirmation). Remount it (key) for every new review.
import type { SearchableRow } from '@blockcatch/sdk';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Pager } from '../../components/admin/Pager.js';
import { SearchBox } from '../../components/admin/SearchBox.js';
import { type TableRow, UserTable } from '../../components/admin/UserTable.js';
import { Dialog } from '../../components/ui/Dialog.js';
import { useFormat } from '../../hooks/useFormat.js';
import type { HasPhone } from '../../lib/admin/selection.js';
import { RenderedMessage } from './RenderedMessage.js';
import { reasonsText } from './send-outcome.js';
import type { ComposedMessage } from './send-request.js';
import { sendWhenText } from './send-when.js';
import { TestSendButton } from './TestSendButton.js';
import { useReviewTable } from './useReviewTable.js';
import { useSendPreview } from './useSendPreview.js';

export function ReviewStep<T extends TableRow & HasPhone & SearchableRow>({
  reviewId,
  rows,
  composed,
  sending,
  onCancel,
  onSend,
  notificationColumns = false,
  sendAt,
  localTime = false,
}: {
  /** The review's number: it keys the gateway's preview. */
  reviewId: number;
  rows: readonly T[];
  /** The message; the review shows it as the first selected recipient will read it. */
  composed: ComposedMessage;
  sending: boolean;
  onCancel(): void;
  /** Called after confirmation with the selected phones. */
  onSend(selected: ReadonlySet<string>): void;
  /** The notifications review's columns (see UserTable). */
  notificationColumns?: boolean;
  /** When the send starts (ISO), or undefined for now. */
  sendAt?: string | undefined;
  /** True: `sendAt` is the time in each recipient's own zone. */
  localTime?: boolean;
}) {
  const { t, i18n } = useTranslation();
  const fmt = useFormat();
  const table = useReviewTable(rows);
  const [confirming, setConfirming] = useState(false);
  const count = table.selectedCount;
  const preview = useSendPreview({
    reviewId,
    rows,
    composed,
    sendAt,
    localTime,
    selected: table.selected,
    marks: table.marks,
    onMarks: table.addMarks,
  });
  const waiting = preview.data?.waitingForQuietHours ?? 0;
  const sendWhen = sendWhenText(t, i18n.language, {
    queued: preview.data?.queued ?? count,
    waiting,
    when:
      sendAt === undefined
        ? undefined
        : localTime
          ? t('admin.sendSms.inTheirZone', { when: fmt.dateTime(Date.parse(sendAt)) })
          : fmt.dateTime(Date.parse(sendAt)),
  });

  return (
    <section className="review" aria-labelledby="review-heading">
      <h2 id="review-heading">{t('common.review')}</h2>
      <p className="recipient-count" data-testid="recipient-count">
        {t('admin.sendSms.recipients', { count })}
      </p>
      <p className="send-when" data-testid="send-when">
        {sendWhen}
      </p>
      {preview.data?.estimatedCost !== undefined && (
        <p className="hint" data-testid="estimated-cost">
          {t('admin.review.estimatedCost', {
            cost: fmt.money(preview.data.estimatedCost),
            count: preview.data.segments ?? 1,
          })}
        </p>
      )}
      {preview.data?.approval && (
        <p className="banner banner-warning" data-testid="needs-approval">
          {t(`admin.review.needsApproval.${preview.data.approval}`)}
        </p>
      )}
      {table.marks.size > 0 && (
        <p className="hint" data-testid="blocked-count">
          {t('admin.review.blocked', { count: table.marks.size })}{' '}
          <span data-testid="blocked-reasons">{reasonsText(t, table.marks.values())}</span>
        </p>
      )}
      <div className="review-message">
        <h3>{t('admin.sendSms.message')}</h3>
        <RenderedMessage preview={preview} composed={composed} rows={rows} />
      </div>
      <SearchBox value={table.searchText} onChange={table.search} />
      <UserTable
        rows={table.page.items}
        caption={t('admin.review.tableCaption')}
        selection={table.selection}
        notificationColumns={notificationColumns}
      />
      <Pager
        page={table.page.page}
        pageCount={table.page.pageCount}
        total={table.page.total}
        unit="recipients"
        rowsPerPage={table.rowsPerPage}
        onPage={table.setPage}
        onRowsPerPage={table.setRowsPerPage}
      />
      <div className="actions">
        <button type="button" onClick={onCancel} disabled={sending}>
          {t('common.cancel')}
        </button>
        <TestSendButton
          composed={composed}
          renderFor={preview.data?.preview?.to}
          disabled={sending || count === 0}
        />
        <button
          type="button"
          className="primary"
          disabled={sending || count === 0}
          onClick={() => setConfirming(true)}
        >
          {t('common.send')}
        </button>
      </div>
      <Dialog
        open={confirming}
        text={t('admin.sendSms.confirm', { count })}
        details={
          <dl className="confirm-details" data-testid="confirm-details">
            <dt>{t('admin.review.channel')}</dt>
            <dd>
              {composed.channel === 'sms' ? t('admin.sendSms.sms') : t('admin.sendSms.whatsapp')}
            </dd>
            <dt>{t('admin.sendSms.message')}</dt>
            <dd className="message-text">
              {preview.data?.preview?.text ??
                (composed.channel === 'sms' ? composed.message : composed.template.name)}
            </dd>
            <dt>{t('admin.review.recipientsLabel')}</dt>
            <dd>{t('admin.sendSms.recipients', { count })}</dd>
            <dt>{t('admin.review.whenLabel')}</dt>
            <dd>{sendWhen}</dd>
            {preview.data?.estimatedCost !== undefined && (
              <>
                <dt>{t('admin.review.costLabel')}</dt>
                <dd>{fmt.money(preview.data.estimatedCost)}</dd>
              </>
            )}
          </dl>
        }
        confirmLabel={t('common.send')}
        onCancel={() => setConfirming(false)}
        onConfirm={() => {
          setConfirming(false);
          onSend(table.selected);
        }}
      />
    </section>
  );
}
