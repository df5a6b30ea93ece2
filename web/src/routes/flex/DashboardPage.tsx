// /flex/dashboard (Home): the system switch, whether the catcher is searching, how the paid
// service stands, "I've arrived", and the offers won, disliked and gone.
import { type DriverDashboard, HttpError, localTimeZone, type OfferKind } from '@blockcatch/sdk';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { FormAlert } from '../../components/FormAlert.js';
import { LoadingOverlay } from '../../components/LoadingOverlay.js';
import { OfferList } from '../../components/OfferList.js';
import { driverQueries } from '../../hooks/queries.js';
import { useFormat } from '../../hooks/useFormat.js';
import { useToast } from '../../hooks/useToast.js';
import { gateway } from '../../sdk.js';

const KINDS: OfferKind[] = ['won', 'disliked', 'gone'];

export default function DashboardPage() {
  const { t } = useTranslation();
  const { show } = useToast();
  const queryClient = useQueryClient();
  const dashboard = useQuery(driverQueries.dashboard());
  const [kind, setKind] = useState<OfferKind>('won');
  const offers = useQuery(driverQueries.offers(kind));
  const [alert, setAlert] = useState<string | null>(null);
  const [switching, setSwitching] = useState(false);
  const timeZone = localTimeZone();

  if (dashboard.isPending) return <LoadingOverlay />;
  if (!dashboard.data) {
    return (
      <main className="page">
        <h1>{t('flex.dashboard.title')}</h1>
        <p role="alert">{t('errors.couldNotLoadUser')}</p>
      </main>
    );
  }
  const data = dashboard.data;

  const onToggle = async () => {
    setAlert(null);
    setSwitching(true);
    try {
      await gateway.driver.setStatus(data.systemOn ? 'stop' : 'start');
      await queryClient.invalidateQueries({ queryKey: driverQueries.all });
    } catch {
      setAlert(t('errors.generic'));
    } finally {
      setSwitching(false);
    }
  };

  const onArrive = async () => {
    setAlert(null);
    if (!data.systemOn) return setAlert(t('errors.mustTurnOnSystem'));
    try {
      const result = await gateway.driver.arrive();
      show('success', result.arrived ? t('flex.dashboard.arrivedOk') : t('flex.dashboard.noBlock'));
    } catch (error) {
      setAlert(
        error instanceof HttpError && error.serverCode === 'system_off'
          ? t('errors.mustTurnOnSystem')
          : t('errors.generic'),
      );
    }
  };

  return (
    <main className="page dashboard">
      <h1>{t('flex.dashboard.title')}</h1>
      <ServiceBanner data={data} />
      <section className="card status-card" aria-labelledby="system-title">
        <h2 id="system-title">
          {data.systemOn ? t('flex.dashboard.systemOn') : t('flex.dashboard.systemOff')}
        </h2>
        <p className={data.searching ? 'searching' : 'muted'}>
          {data.searching ? t('flex.dashboard.searching') : t('flex.dashboard.notSearching')}
          {data.notSearchingBecause &&
            ` · ${t(`flex.dashboard.because.${data.notSearchingBecause}`)}`}
        </p>
        <div className="actions">
          <button
            type="button"
            className={data.systemOn ? '' : 'primary'}
            role="switch"
            aria-checked={data.systemOn}
            onClick={onToggle}
            disabled={switching}
          >
            {data.systemOn ? t('flex.dashboard.turnOff') : t('flex.dashboard.turnOn')}
          </button>
          <button type="button" onClick={onArrive}>
            {t('flex.dashboard.arrived')}
          </button>
        </div>
        <FormAlert text={alert} />
      </section>
      <section className="card" aria-labelledby="offers-title">
        <h2 id="offers-title">{t('flex.offers.title')}</h2>
        <div className="tabs">
          {KINDS.map((k) => (
            <button
              key={k}
              type="button"
              aria-pressed={kind === k}
              className={kind === k ? 'primary' : ''}
              onClick={() => setKind(k)}
            >
              {t(`flex.offers.${k}`)} ({data.offers[k]})
            </button>
          ))}
        </div>
        {offers.error ? (
          <p role="alert">{t('errors.couldNotLoadOffers')}</p>
        ) : (
          offers.data && <OfferList offers={offers.data} timeZone={timeZone} />
        )}
      </section>
    </main>
  );
}

function ServiceBanner({ data }: { data: DriverDashboard }) {
  const { t } = useTranslation();
  const fmt = useFormat();
  if (data.expired || !data.goodStanding) {
    return (
      <p className="banner banner-danger">
        {t('flex.dashboard.serviceExpired')} <Link to="/payment">{t('flex.dashboard.renew')}</Link>
      </p>
    );
  }
  if (data.expiringSoon) {
    return (
      <p className="banner banner-warning">
        {t('flex.dashboard.serviceExpiresToday')}{' '}
        <Link to="/payment">{t('flex.dashboard.renew')}</Link>
      </p>
    );
  }
  if (data.expirationDateTimestamp === null) return null;
  return (
    <p className="banner">
      {t('flex.dashboard.serviceExpiresOn', {
        date: fmt.date(data.expirationDateTimestamp),
      })}
    </p>
  );
}
