// /flex/confirm: the delivery account is connected; the next setup step is the filters.
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

export default function ConnectedPage() {
  const { t } = useTranslation();
  return (
    <main className="page narrow">
      <h1>{t('flex.login.connected')}</h1>
      <p>{t('flex.confirm.description')}</p>
      {/* The landing page moves a signed-in driver on to the first unfinished step. */}
      <Link className="button primary" to="/">
        {t('common.continue')}
      </Link>
    </main>
  );
}
