// /flex/calendar: the blocks the catcher won, from today on; /flex/calendar/:phoneNumber shows
// another driver's (the gateway allows that to admins only).
import { formatPhone } from '@blockcatch/sdk';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { LoadingOverlay } from '../../components/LoadingOverlay.js';
import { OfferList } from '../../components/OfferList.js';
import { useLoad } from '../../hooks/useLoad.js';
import { gateway } from '../../sdk.js';

export default function CalendarPage() {
  const { t } = useTranslation();
  const { phoneNumber } = useParams();
  const calendar = useLoad(
    // With a phone, an admin looks at that driver's calendar.
    () => (phoneNumber ? gateway.admin.userCalendar(phoneNumber) : gateway.driver.calendar()),
    [phoneNumber],
  );
  return (
    <main className="page">
      <h1>{t('flex.calendar.title')}</h1>
      {phoneNumber && <p className="muted">{formatPhone(phoneNumber) || phoneNumber}</p>}
      {calendar.loading && !calendar.data ? (
        <LoadingOverlay />
      ) : calendar.error || !calendar.data ? (
        <p role="alert">{t('errors.couldNotLoadCalendar')}</p>
      ) : calendar.data.Items.length === 0 ? (
        <p className="muted">{t('flex.calendar.empty')}</p>
      ) : (
        <OfferList offers={calendar.data.Items} timeZone={calendar.data.timeZone} />
      )}
    </main>
  );
}
