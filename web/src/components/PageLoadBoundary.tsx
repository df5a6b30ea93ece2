// Catches a page that fails to load (a lost chunk, a render error) without losing the shell.
import { Component, type ReactNode } from 'react';
import { Translation } from 'react-i18next';
import { Link } from 'react-router';

export class PageLoadBoundary extends Component<
  { children: ReactNode; resetKey: string },
  { failed: boolean }
> {
  override state = { failed: false };

  static getDerivedStateFromError() {
    return { failed: true };
  }

  override componentDidUpdate(previous: { resetKey: string }) {
    // Navigating elsewhere gives the next page its own chance to load.
    if (previous.resetKey !== this.props.resetKey && this.state.failed)
      this.setState({ failed: false });
  }

  override render() {
    if (!this.state.failed) return this.props.children;
    return (
      <Translation>
        {(t) => (
          <main className="page error-page">
            <p>{t('errorPage.pageLoad')}</p>
            <Link to="/">{t('errorPage.goBack')}</Link>
          </main>
        )}
      </Translation>
    );
  }
}
