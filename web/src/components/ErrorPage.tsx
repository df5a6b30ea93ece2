// The error pages: 'page not found' for an unknown path, else 'an error has occurred' for a render
// error anywhere below AppErrorBoundary (a page's own errors stop at PageLoadBoundary, inside the
// shell).
import { Component, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

export function ErrorPage({ notFound = false }: { notFound?: boolean }) {
  const { t } = useTranslation();
  return (
    <main className="page error-page">
      <h1>{notFound ? t('errorPage.notFound') : t('errorPage.generic')}</h1>
      <Link to="/">{t('errorPage.goBack')}</Link>
    </main>
  );
}

export class AppErrorBoundary extends Component<{ children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError() {
    return { failed: true };
  }

  override render() {
    return this.state.failed ? <ErrorPage /> : this.props.children;
  }
}
