// Offers the catcher saw, one kind at a time: when, where and for how much.

import type { OfferItem } from '@blockcatch/sdk';
import { formatDayShort } from '@blockcatch/sdk';
import { useTranslation } from 'react-i18next';

export function OfferList({ offers, timeZone }: { offers: OfferItem[]; timeZone: string }) {
  const { t, i18n } = useTranslation();
  if (offers.length === 0) return <p className="muted">{t('flex.offers.empty')}</p>;
  const time = new Intl.DateTimeFormat(i18n.language, { timeStyle: 'short', timeZone });
  const money = new Intl.NumberFormat(i18n.language, { style: 'currency', currency: 'USD' });
  return (
    <ul className="offer-list">
      {offers.map((offer) => (
        <li key={`${offer.kind}-${offer.offerId}`}>
          <span className="offer-day">{formatDayShort(offer.startTime, timeZone)}</span>{' '}
          <span>
            {time.format(offer.startTime)}–{time.format(offer.endTime)}
          </span>{' '}
          <strong>{money.format(offer.pay)}</strong>{' '}
          <span className="muted">{offer.serviceAreaId}</span>
          {offer.reason && (
            <span className="muted"> · {t(`flex.offers.reasons.${offer.reason}`)}</span>
          )}
        </li>
      ))}
    </ul>
  );
}
