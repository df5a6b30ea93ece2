// How fast the catcher acted over the last day, for the driver's dashboard and the admin's view of
// it: the median from first seeing an offer to the accept request leaving, in plain words.
import type { LatencySummary } from '@blockcatch/sdk';
import { useTranslation } from 'react-i18next';

export function LatencyLine({ latency }: { latency: LatencySummary | undefined }) {
  const { t, i18n } = useTranslation();
  if (!latency) return null;
  if (latency.medianSeenToAcceptMs === null) {
    return <p className="muted">{t('flex.dashboard.latencyNone')}</p>;
  }
  const time = reactionTime(latency.medianSeenToAcceptMs, i18n.language);
  return (
    <p className="muted" data-testid="latency">
      {t('flex.dashboard.latency', { time: t(time.key, time.values), count: latency.accepts })}
    </p>
  );
}

/**
 * A reaction time in words: "under 1 ms" below a millisecond (the median is often 0.3 ms, and
 * "0 ms" reads like a fault), whole milliseconds below a second, tenths of seconds above.
 */
export function reactionTime(
  ms: number,
  language: string,
): { key: string; values: Record<string, string> } {
  if (ms < 1) return { key: 'flex.dashboard.reactionUnderMs', values: {} };
  if (ms < 1000) {
    return {
      key: 'flex.dashboard.reactionMs',
      values: { ms: new Intl.NumberFormat(language, { maximumFractionDigits: 0 }).format(ms) },
    };
  }
  return {
    key: 'flex.dashboard.reactionSeconds',
    values: {
      seconds: new Intl.NumberFormat(language, { maximumFractionDigits: 1 }).format(ms / 1000),
    },
  };
}
