// The root error page: 'page not found' for a Not Found status, else 'an error has occurred'.

import { useTranslation } from 'react-i18next';
import { isRouteErrorResponse, Link, useRouteError } from 'react-router';

export function ErrorPage({ notFound = false }: { notFound?: boolean }) {
  const { t } = useTranslation();
  const error = useRouteError();
  const isNotFound = notFound || (isRouteErrorResponse(error) && error.statusText === 'Not Found');
  return (
    <main className="page error-page">
      <h1>{isNotFound ? t('errorPage.notFound') : t('errorPage.generic')}</h1>
      <Link to="/">{t('errorPage.goBack')}</Link>
    </main>
  );
}
