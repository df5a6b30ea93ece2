// Offers the catcher saw, one kind at a time: when, where and for how much, in start order, with
// every time on `timeZone` (the driver's saved zone) through the one set of formatters.

import type { OfferItem } from '@blockcatch/sdk';
import { useTranslation } from 'react-i18next';
import { useFormat } from '../hooks/useFormat.js';

export function OfferList({
  offers,
  timeZone,
  empty,
}: {
  offers: OfferItem[];
  timeZone: string;
  /** What an empty list says; "No offers yet" unless told. */
  empty?: string;
}) {
  const { t } = useTranslation();
  const fmt = useFormat(timeZone);
  if (offers.length === 0) return <p className="muted">{empty ?? t('flex.offers.empty')}</p>;
  const sorted = [...offers].sort((a, b) => a.startTime - b.startTime || a.endTime - b.endTime);
  return (
    <ul className="offer-list">
      {sorted.map((offer) => (
        <li key={`${offer.kind}-${offer.offerId}`} data-offer-id={offer.offerId}>
          <span className="offer-day">{fmt.weekday(offer.startTime)}</span>{' '}
          <span className="offer-time">{fmt.timeRange(offer.startTime, offer.endTime)}</span>{' '}
          <strong>{fmt.money(offer.pay)}</strong>{' '}
          <span className="muted">{offer.serviceAreaId}</span>
          {offer.reason && (
            <span className="muted"> · {t(`flex.offers.reasons.${offer.reason}`)}</span>
          )}
        </li>
      ))}
    </ul>
  );
}

/** "Times in Central Time" when the zone is not the device's, else nothing. */
export function ZoneNote({ timeZone }: { timeZone: string }) {
  const { t } = useTranslation();
  const fmt = useFormat(timeZone);
  if (!fmt.zoneName) return null;
  return (
    <p className="muted zone-note" data-testid="zone-note">
      {t('flex.calendar.zoneNote', { zone: fmt.zoneName })}
    </p>
  );
}
