// /admin/support: the Support inbox. Open requests oldest first, each with a form to answer it,
// texted to the driver or shown on their Contact page only; answered ones newest first.
import {
  MAX_SUPPORT_REPLY_LENGTH,
  SUPPORT_STATUSES,
  type SupportRequest,
  type SupportStatus,
} from '@blockcatch/sdk';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Spinner } from '../../components/admin/Spinner.js';
import { FormAlert } from '../../components/FormAlert.js';
import { useToast } from '../../components/ui/Toast.js';
import { useFormat } from '../../hooks/useFormat.js';
import { errorMessage } from '../../lib/errorMessage.js';
import { gateway } from '../../sdk.js';
import { supportQueries } from './queries.js';
import { SupportItem } from './SupportItem.js';

export default function SupportPage() {
  const { t } = useTranslation();
  const fmt = useFormat();
  const [status, setStatus] = useState<SupportStatus>('open');
  const inbox = useQuery(supportQueries.inbox(status));
  return (
    <main className="page admin-page">
      <h1>{t('admin.support.title')}</h1>
      <p className="muted">{t('admin.support.intro')}</p>
      <div className="tabs">
        {SUPPORT_STATUSES.map((key) => (
          <button
            key={key}
            type="button"
            className={status === key ? 'primary' : undefined}
            aria-pressed={status === key}
            onClick={() => setStatus(key)}
          >
            {t(`admin.support.tabs.${key}`)}
          </button>
        ))}
      </div>
      {inbox.isPending ? (
        <Spinner />
      ) : inbox.isError ? (
        <p role="alert">{t('errors.fetchFailed')}</p>
      ) : inbox.data.length === 0 ? (
        <p className="muted">{t(`admin.support.empty.${status}`)}</p>
      ) : (
        <ul className="support-list">
          {inbox.data.map((request) => (
            <SupportItem key={request.id} request={request} when={fmt.dateTime}>
              <p className="muted">
                {request.name} · {fmt.phone(request.phoneNumber)}
              </p>
              {request.status === 'open' && <AnswerForm request={request} />}
            </SupportItem>
          ))}
        </ul>
      )}
    </main>
  );
}

function AnswerForm({ request }: { request: SupportRequest }) {
  const { t } = useTranslation();
  const { show } = useToast();
  const queryClient = useQueryClient();
  const [reply, setReply] = useState('');
  const [byText, setByText] = useState(true);
  const [alert, setAlert] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const ids = { reply: useId(), text: useId() };

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setAlert(null);
    if (reply.trim() === '') return setAlert(t('admin.support.writeAnswer'));
    setBusy(true);
    try {
      await gateway.admin.answerSupport(request.id, { reply, channel: byText ? 'sms' : 'app' });
      show('success', t(byText ? 'admin.support.sentByText' : 'admin.support.sentInApp'));
      await queryClient.invalidateQueries({ queryKey: ['admin', 'support'] });
    } catch (error) {
      setAlert(errorMessage(t, error, t('admin.support.answerFailed')));
      setBusy(false);
    }
  };

  return (
    <form className="form support-answer" onSubmit={onSubmit} noValidate>
      <div className="field">
        <label htmlFor={ids.reply}>{t('admin.support.answer')}</label>
        <textarea
          id={ids.reply}
          rows={3}
          maxLength={MAX_SUPPORT_REPLY_LENGTH}
          value={reply}
          onChange={(e) => setReply(e.target.value)}
        />
      </div>
      <div className="checkbox-field">
        <input
          id={ids.text}
          type="checkbox"
          checked={byText}
          onChange={(e) => setByText(e.target.checked)}
        />
        <label htmlFor={ids.text}>{t('admin.support.byText')}</label>
      </div>
      <FormAlert text={alert} />
      <button type="submit" className="primary" disabled={busy}>
        {t('admin.support.send')}
      </button>
    </form>
  );
}
