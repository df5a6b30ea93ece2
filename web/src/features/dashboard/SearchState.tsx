// Why the catcher is not searching for the driver: the first reason that applies, the time a
// throttle ends or searching starts again, and the action to take when the delivery platform asks for a new code or a check in its app.
import type { DriverDashboard } from '@blockcatch/sdk';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useFormat } from '../../hooks/useFormat.js';
import { VerificationNotice } from './VerificationNotice.js';

export function SearchState({ data, timeZone }: { data: DriverDashboard; timeZone: string }) {
  const { t } = useTranslation();
  const fmt = useFormat(timeZone);
  const reason = data.notSearchingBecause;
  const time =
    data.throttledUntil !== null
      ? fmt.time(data.throttledUntil)
      : data.searchingFrom !== null
        ? fmt.dateTime(data.searchingFrom)
        : '';
  // Outside a schedule with no hours at all there is no time searching starts again.
  const key =
    reason === 'outside-schedule' && data.searchingFrom === null ? 'outside-schedule-none' : reason;
  return (
    <>
      <p className="state-detail">
        {!data.systemOn
          ? t('flex.dashboard.turnOnHint')
          : reason
            ? t(`flex.dashboard.because.${key}`, { time })
            : null}
      </p>
      {data.needsAttention === 'enter-code' && (
        <p className="needs-attention" role="alert">
          <strong>{t('flex.dashboard.needsAttention')}</strong> {t('flex.dashboard.enterCodeHint')}{' '}
          <Link to="/flex/login">{t('flex.dashboard.enterCode')}</Link>
        </p>
      )}
      {data.needsAttention === 'verify' && <VerificationNotice />}
    </>
  );
}
