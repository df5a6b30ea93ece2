// /flex/calendar: the blocks the catcher won, from today on; /flex/calendar/:phoneNumber shows
// another driver's (the gateway allows that to admins only).
import { formatPhone } from '@blockcatch/sdk';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { CalendarFeed } from '../../components/driver/CalendarFeed.js';
import { LoadingOverlay } from '../../components/LoadingOverlay.js';
import { OfferList, ZoneNote } from '../../components/OfferList.js';
import { adminQueries, driverQueries } from '../../hooks/queries.js';

export default function CalendarPage() {
  const { t } = useTranslation();
  const { phoneNumber } = useParams();
  // With a phone, an admin looks at that driver's calendar.
  const calendar = useQuery(
    phoneNumber ? adminQueries.userCalendar(phoneNumber) : driverQueries.calendar(),
  );
  return (
    <main className="page">
      <h1>{t('flex.calendar.title')}</h1>
      {phoneNumber && <p className="muted">{formatPhone(phoneNumber) || phoneNumber}</p>}
      {calendar.isPending ? (
        <LoadingOverlay />
      ) : calendar.error || !calendar.data ? (
        <p role="alert">{t('errors.couldNotLoadCalendar')}</p>
      ) : (
        <>
          <ZoneNote timeZone={calendar.data.timeZone} />
          <OfferList
            offers={calendar.data.Items}
            timeZone={calendar.data.timeZone}
            empty={t('flex.calendar.empty')}
          />
        </>
      )}
      {!phoneNumber && <CalendarFeed />}
    </main>
  );
}
