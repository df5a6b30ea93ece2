// Offers the catcher saw, one kind at a time: when, where and for how much.

import type { OfferItem } from '@blockcatch/sdk';
import { useTranslation } from 'react-i18next';
import { useFormat } from '../hooks/useFormat.js';

export function OfferList({ offers, timeZone }: { offers: OfferItem[]; timeZone: string }) {
  const { t } = useTranslation();
  const fmt = useFormat(timeZone);
  if (offers.length === 0) return <p className="muted">{t('flex.offers.empty')}</p>;
  return (
    <ul className="offer-list">
      {offers.map((offer) => (
        <li key={`${offer.kind}-${offer.offerId}`}>
          <span className="offer-day">{fmt.weekday(offer.startTime)}</span>{' '}
          <span>
            {fmt.time(offer.startTime)}–{fmt.time(offer.endTime)}
          </span>{' '}
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
