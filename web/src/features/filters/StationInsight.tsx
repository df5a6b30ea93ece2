// Beside the chosen stations on the Filters page: what every driver's offers of the last 4 weeks
// say about each (its busiest hour of the week, the middle half of what it paid per hour) and what
// the driver's minimum per hour makes of it. Figures with fewer than 5 drivers behind them are
// never shown, so no driver can be singled out.
import { type InsightSuggestion, insightSuggestion } from '@blockcatch/sdk';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useFormat } from '../../hooks/useFormat.js';
import { gateway } from '../../sdk.js';

// A Monday: weekday names come from Intl for the reader's language.
const A_MONDAY = Date.UTC(2024, 0, 1);

export function StationInsight({
  stations,
  minHourlyPay,
}: {
  /** The chosen stations, with the names drivers know them by and the minimum each applies. */
  stations: readonly { id: string; name: string; minHourlyPay: number | null }[];
  minHourlyPay?: number | null;
}) {
  const { t, i18n } = useTranslation();
  const fmt = useFormat();
  const insight = useQuery({
    queryKey: ['driver', 'station-insight'],
    queryFn: () => gateway.driver.stationInsight(),
    staleTime: 10 * 60_000,
  });
  if (!insight.data || stations.length === 0) return null;
  const when = (s: InsightSuggestion) => {
    const day = new Intl.DateTimeFormat(i18n.language, { weekday: 'long', timeZone: 'UTC' }).format(
      A_MONDAY + s.weekday * 86_400_000,
    );
    const hour = new Intl.DateTimeFormat(i18n.language, {
      hour: 'numeric',
      timeZone: 'UTC',
    }).format(A_MONDAY + s.hour * 3_600_000);
    return { day, hour };
  };
  const lines = stations.flatMap((station) => {
    const minimum = station.minHourlyPay ?? minHourlyPay ?? null;
    const s = insightSuggestion(insight.data.Items, station.id, minimum ?? 0);
    if (!s) return [];
    const { day, hour } = when(s);
    const paid = t('flex.settings.insight.paid', {
      day,
      hour,
      station: station.name,
      low: fmt.money(s.low),
      high: fmt.money(s.high),
    });
    const verdict =
      minimum === null
        ? ''
        : ` ${t(`flex.settings.insight.${s.verdict}`, { min: fmt.money(minimum) })}`;
    return [{ id: station.id, text: `${paid}${verdict}` }];
  });
  return (
    // Closed until asked for: a sentence per station would make the page twice as long on a phone.
    <details className="station-insight">
      <summary>{t('flex.settings.insight.title')}</summary>
      {lines.length === 0 ? (
        <p className="muted">
          {t('flex.settings.insight.noFigures', { count: insight.data.minDrivers })}
        </p>
      ) : (
        <ul>
          {lines.map((line) => (
            <li key={line.id}>{line.text}</li>
          ))}
        </ul>
      )}
      <p className="muted">
        {t('flex.settings.insight.source', { count: insight.data.minDrivers })}
      </p>
    </details>
  );
}
