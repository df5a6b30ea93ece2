// One support request as its asker and staff see it: topic, when, open or answered, the words
// and the answer, all drawn as text (never as markup).
import type { SupportRequest } from '@blockcatch/sdk';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Badge } from '../../components/ui/Badge.js';

/** One request as its asker or staff see it: topic, when, state, the words and the answer. */
export function SupportItem({
  request,
  when,
  children,
}: {
  request: SupportRequest;
  when(ts: number): string;
  /** Shown under the request: staff's answer form in the inbox. */
  children?: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <li className="support-item">
      <p className="support-item-head">
        <strong>{t(`contact.topics.${request.topic}`)}</strong>
        <span className="muted">{when(request.createdAt)}</span>
        <Badge tone={request.status === 'open' ? 'warn' : 'ok'}>
          {t(`contact.status.${request.status}`)}
        </Badge>
      </p>
      <p className="support-message">{request.message}</p>
      {request.reply !== null && (
        <div className="support-reply">
          <p className="muted">
            {t(
              request.replyChannel === 'sms' ? 'contact.answeredByText' : 'contact.answeredInApp',
              { when: request.answeredAt === null ? '' : when(request.answeredAt) },
            )}
          </p>
          <p className="support-message">{request.reply}</p>
        </div>
      )}
      {children}
    </li>
  );
}
