// /contact: support hours and the live chat, when the chat widget is configured.
import { useTranslation } from 'react-i18next';
import { chatWidgetConfigured, openChat } from '../../components/ChatWidget.js';
import { PublicFooter } from '../../components/PublicFooter.js';

export default function ContactPage() {
  const { t } = useTranslation();
  return (
    <>
      <main className="page narrow">
        <h1>{t('contact.title')}</h1>
        <p>{t('contact.supportHours')}</p>
        <p>{t('contact.intro')}</p>
        {chatWidgetConfigured() && (
          <button type="button" className="primary" onClick={openChat}>
            {t('contact.chat')}
          </button>
        )}
      </main>
      <PublicFooter />
    </>
  );
}
