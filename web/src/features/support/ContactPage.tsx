// /contact: support hours and answers to common questions beside a form a signed-in driver sends
// support a request with (name and phone from the account), and their requests with staff's
// answers. Visitors are asked to sign in first. The live chat shows only when it is configured.
import { MAX_SUPPORT_MESSAGE_LENGTH, SUPPORT_TOPICS, type SupportTopic } from '@blockcatch/sdk';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { chatWidgetConfigured, openChat } from '../../components/ChatWidget.js';
import { FormAlert } from '../../components/FormAlert.js';
import { PublicFooter } from '../../components/PublicFooter.js';
import { useAuth } from '../../hooks/useAuth.js';
import { useFormat } from '../../hooks/useFormat.js';
import { errorMessage } from '../../lib/errorMessage.js';
import { FAQ_KEYS } from '../../lib/faqs.js';
import { gateway } from '../../sdk.js';
import { supportQueries } from './queries.js';
import { SupportItem } from './SupportItem.js';

export default function ContactPage() {
  const { t } = useTranslation();
  const { state } = useAuth();
  return (
    <>
      <main className="page contact-page">
        <h1>{t('contact.title')}</h1>
        <div className="contact-layout">
          <div className="contact-main">
            {state.status === 'signed-in' ? (
              <SupportRequests name={state.user.name} phoneNumber={state.user.phoneNumber} />
            ) : (
              <p className="notice">
                {t('contact.signInFirst')} <Link to="/login">{t('contact.signIn')}</Link>
              </p>
            )}
          </div>
          <aside className="contact-aside" aria-labelledby="contact-help">
            <h2 id="contact-help">{t('contact.hoursTitle')}</h2>
            <p>{t('contact.supportHours')}</p>
            <p className="muted">{t('contact.answerTime')}</p>
            <h2>{t('contact.faqTitle')}</h2>
            <ul className="faq-links">
              {FAQ_KEYS.map((key) => (
                <li key={key}>
                  <Link to={`/faqs#${key}`}>{t(`faqs.${key}.question`)}</Link>
                </li>
              ))}
            </ul>
            {chatWidgetConfigured() && (
              <button type="button" className="primary" onClick={openChat}>
                {t('contact.chat')}
              </button>
            )}
          </aside>
        </div>
      </main>
      <PublicFooter />
    </>
  );
}

function SupportRequests({ name, phoneNumber }: { name: string; phoneNumber: string }) {
  const { t } = useTranslation();
  const fmt = useFormat();
  const queryClient = useQueryClient();
  const requests = useQuery(supportQueries.mine());
  const [topic, setTopic] = useState<SupportTopic>('other');
  const [message, setMessage] = useState('');
  const [alert, setAlert] = useState<string | null>(null);
  const [sent, setSent] = useState(false);
  const [busy, setBusy] = useState(false);
  const ids = { topic: useId(), message: useId(), count: useId() };

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setAlert(null);
    setSent(false);
    if (message.trim() === '') return setAlert(t('contact.writeMessage'));
    setBusy(true);
    try {
      await gateway.driver.askSupport({ topic, message });
      setMessage('');
      setSent(true);
      await queryClient.invalidateQueries({ queryKey: supportQueries.mine().queryKey });
    } catch (error) {
      setAlert(errorMessage(t, error, t('contact.sendFailed')));
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <form className="form contact-form" onSubmit={onSubmit} noValidate>
        <h2>{t('contact.formTitle')}</h2>
        <p className="muted">{t('contact.formIntro')}</p>
        <dl className="contact-who">
          <dt>{t('contact.name')}</dt>
          <dd>{name}</dd>
          <dt>{t('contact.phone')}</dt>
          <dd>{fmt.phone(phoneNumber)}</dd>
        </dl>
        <div className="field">
          <label htmlFor={ids.topic}>{t('contact.topic')}</label>
          <select
            id={ids.topic}
            value={topic}
            onChange={(e) => setTopic(e.target.value as SupportTopic)}
          >
            {SUPPORT_TOPICS.map((key) => (
              <option key={key} value={key}>
                {t(`contact.topics.${key}`)}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor={ids.message}>{t('contact.message')}</label>
          <textarea
            id={ids.message}
            rows={5}
            maxLength={MAX_SUPPORT_MESSAGE_LENGTH}
            value={message}
            aria-describedby={ids.count}
            onChange={(e) => setMessage(e.target.value)}
          />
          <p id={ids.count} className="muted field-hint">
            {t('contact.charactersLeft', {
              count: MAX_SUPPORT_MESSAGE_LENGTH - message.length,
            })}
          </p>
        </div>
        <FormAlert text={alert} />
        {sent && (
          <p className="notice" role="status">
            {t('contact.sent')}
          </p>
        )}
        <button type="submit" className="primary" disabled={busy}>
          {t('contact.send')}
        </button>
      </form>
      <section className="support-history" aria-labelledby="support-history">
        <h2 id="support-history">{t('contact.yourRequests')}</h2>
        {requests.isPending ? null : requests.isError ? (
          <p role="alert">{t('errors.fetchFailed')}</p>
        ) : requests.data.length === 0 ? (
          <p className="muted">{t('contact.noRequests')}</p>
        ) : (
          <ul className="support-list">
            {requests.data.map((request) => (
              <SupportItem key={request.id} request={request} when={fmt.dateTime} />
            ))}
          </ul>
        )}
      </section>
    </>
  );
}
