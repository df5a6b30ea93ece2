// Offers a reload when the health poll sees a new version of the app.
import { useTranslation } from 'react-i18next';
import { useVersionCheck } from '../hooks/useVersionCheck.js';
import { Button } from './ui/Button.js';

export function UpdateBanner() {
  const { t } = useTranslation();
  const { updateAvailable } = useVersionCheck();
  if (!updateAvailable) return null;
  return (
    <div className="update-banner" role="status">
      <span>{t('common.updateAvailable')}</span>
      <Button onClick={() => window.location.reload()}>{t('common.reload')}</Button>
    </div>
  );
}
