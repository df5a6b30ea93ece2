// How fast the catcher acted over the last day, for the driver's dashboard and the admin's view of
// it: the median from first seeing an offer to the accept request leaving.
import type { LatencySummary } from '@blockcatch/sdk';
import { useTranslation } from 'react-i18next';

export function LatencyLine({ latency }: { latency: LatencySummary | undefined }) {
  const { t, i18n } = useTranslation();
  if (!latency) return null;
  if (latency.medianSeenToAcceptMs === null) {
    return <p className="muted">{t('flex.dashboard.latencyNone')}</p>;
  }
  const ms = new Intl.NumberFormat(i18n.language, { maximumFractionDigits: 1 }).format(
    latency.medianSeenToAcceptMs,
  );
  return (
    <p className="muted" data-testid="latency">
      {t('flex.dashboard.latency', { ms, count: latency.accepts })}
    </p>
  );
}
