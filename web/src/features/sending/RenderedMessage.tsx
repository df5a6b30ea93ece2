// The review's message as the first selected recipient will read it, rendered by the gateway
// (template variables filled). Until that answer is here, or when the gateway refuses the message
// (a template variable with no value), the message as written is shown instead.
import type { SendPreview } from '@blockcatch/sdk';
import type { UseQueryResult } from '@tanstack/react-query';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { TableRow } from '../../components/admin/UserTable.js';
import { useFormat } from '../../hooks/useFormat.js';
import { gatewayNumber } from '../../lib/admin/review-marks.js';
import { errorMessage } from '../../lib/errorMessage.js';
import { MessagePreview } from './MessagePreview.js';
import type { ComposedMessage } from './send-request.js';

export function RenderedMessage({
  preview,
  composed,
  rows,
}: {
  preview: UseQueryResult<SendPreview>;
  composed: ComposedMessage;
  rows: readonly TableRow[];
}) {
  const { t } = useTranslation();
  const fmt = useFormat();
  const rendered = preview.data?.preview ?? null;
  const to = rendered?.to;
  const recipient = useMemo(
    () =>
      to === undefined ? undefined : rows.find((row) => gatewayNumber(row.phoneNumber) === to),
    [rows, to],
  );

  if (preview.isError) {
    return (
      <>
        <p className="error-text" role="alert">
          {errorMessage(t, preview.error, t('admin.review.previewUnavailable'))}
        </p>
        <MessagePreview composed={composed} />
      </>
    );
  }
  if (!rendered) {
    return (
      <>
        {preview.isFetching && <p className="hint">{t('admin.review.previewLoading')}</p>}
        <MessagePreview composed={composed} />
      </>
    );
  }
  const name =
    !recipient || recipient.unregistered ? t('admin.userTable.unregistered') : recipient.name;
  return (
    <>
      <p className="hint" data-testid="preview-for">
        {t('admin.review.previewFor', { name, phone: fmt.phone(rendered.to) })}
      </p>
      <p className="message-text" data-testid="rendered-preview">
        {rendered.text}
      </p>
    </>
  );
}
