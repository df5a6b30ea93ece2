// Shown while a route loads or the session is being read: the logo pulses.
import { useTranslation } from 'react-i18next';
import { Logo } from './Logo.js';

export function LoadingOverlay() {
  const { t } = useTranslation();
  return (
    <div
      className="loading-overlay"
      role="progressbar"
      aria-label={t('common.loading')}
      aria-busy="true"
    >
      <Logo className="pulse" />
    </div>
  );
}
