// /flex/dashboard (Home): first and large, whether the catcher is searching (or why not, or that
// the service is expiring or expired) with the one on/off switch; then today's and the coming won
// blocks; then the offers won, disliked (with the reason) and gone.
import { type DriverDashboard, HttpError, type OfferItem, type OfferKind } from '@blockcatch/sdk';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { BillingNotice } from '../../components/driver/BillingNotice.js';
import { LatencyLine } from '../../components/driver/LatencyLine.js';
import { OutcomesSummary } from '../../components/driver/OutcomesSummary.js';
import { FormAlert } from '../../components/FormAlert.js';
import { LoadingOverlay } from '../../components/LoadingOverlay.js';
import { OfferList, ZoneNote } from '../../components/OfferList.js';
import { Badge } from '../../components/ui/Badge.js';
import { useToast } from '../../components/ui/Toast.js';
import { useAuth } from '../../hooks/useAuth.js';
import { useDriverFormat, useDriverZone } from '../../hooks/useDriverFormat.js';
import { errorMessage } from '../../lib/errorMessage.js';
import { driverQueries } from '../../lib/queries.js';
import { gateway } from '../../sdk.js';
import { dashboardQueries } from './queries.js';
import { SearchState } from './SearchState.js';

const KINDS: OfferKind[] = ['won', 'disliked', 'gone'];

export default function DashboardPage() {
  const { t } = useTranslation();
  const { show } = useToast();
  const queryClient = useQueryClient();
  const dashboard = useQuery(dashboardQueries.dashboard());
  const [kind, setKind] = useState<OfferKind>('won');
  const offers = useQuery(dashboardQueries.offers(kind));
  const latency = useQuery(dashboardQueries.latency());
  const outcomes = useQuery(dashboardQueries.outcomes());
  const calendar = useQuery(driverQueries.calendar());
  // "I've arrived" shows in a block's check-in window only: re-read the clock every minute.
  useNow(60_000);
  const [alert, setAlert] = useState<string | null>(null);
  const [switching, setSwitching] = useState(false);
  // Every time on this screen is on the driver's saved zone, the calendar's.
  const timeZone = useDriverZone();

  if (dashboard.isPending || timeZone === undefined) return <LoadingOverlay />;
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
    } catch (error) {
      setAlert(errorMessage(t, error, t('errors.generic')));
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
          : errorMessage(t, error, t('errors.generic')),
      );
    }
  };

  const state = systemState(data);
  return (
    <main className="page dashboard">
      <h1>{t('flex.dashboard.title')}</h1>
      <AdminCard />
      <section
        className={`card state-card state-${state}`}
        aria-labelledby="system-title"
        data-testid="system-state"
      >
        <h2 id="system-title" className="visually-hidden">
          {t('flex.dashboard.stateTitle')}
        </h2>
        <p className="state-headline">
          {state === 'expired'
            ? t('flex.dashboard.expiredTitle')
            : data.searching
              ? t('flex.dashboard.searching')
              : t('flex.dashboard.notSearching')}
        </p>
        {data.expiringSoon && state !== 'expired' && (
          <p className="state-flag">
            <Badge tone="warn">{t('flex.dashboard.expiringTitle')}</Badge>
          </p>
        )}
        <SearchState data={data} timeZone={timeZone} />
        <LatencyLine latency={latency.data} />
        <OutcomesSummary outcomes={outcomes.data} linkFilters />
        <ServiceBanner data={data} />
        <BillingNotice />
        <div className="state-actions">
          <button
            type="button"
            className="switch"
            role="switch"
            aria-checked={data.systemOn}
            onClick={onToggle}
            disabled={switching}
            aria-busy={switching || undefined}
          >
            <span className="switch-track" aria-hidden="true" />
            <span>
              {data.systemOn ? t('flex.dashboard.systemOn') : t('flex.dashboard.systemOff')}
            </span>
          </button>
          {inCheckInWindow(calendar.data?.Items ?? [], Date.now()) && (
            <button type="button" className="large" onClick={onArrive}>
              {t('flex.dashboard.arrived')}
            </button>
          )}
        </div>
        <FormAlert text={alert} />
      </section>
      <WonBlocks />
      <section className="card" aria-labelledby="offers-title">
        <h2 id="offers-title">{t('flex.offers.title')}</h2>
        <div className="tabs">
          {KINDS.map((k) => (
            <button key={k} type="button" aria-pressed={kind === k} onClick={() => setKind(k)}>
              {t(`flex.offers.${k}`)} <span className="badge">{data.offers[k]}</span>
            </button>
          ))}
        </div>
        {offers.error ? (
          <p role="alert">{t('errors.couldNotLoadOffers')}</p>
        ) : (
          offers.data && (
            <>
              <OfferList
                offers={offers.data}
                timeZone={timeZone}
                empty={t(`flex.offers.empty-${kind}`)}
              />
              {offers.data.length < data.offers[kind] && (
                <p className="muted" data-testid="offers-shown">
                  {t('flex.offers.newestOf', {
                    shown: offers.data.length,
                    total: data.offers[kind],
                  })}
                </p>
              )}
            </>
          )
        )}
      </section>
    </main>
  );
}

/** How long before a won block starts its driver may check in ("I've arrived"). */
const CHECK_IN_OPENS_MS = 30 * 60_000;

/** A won block is under way, or starts within CHECK_IN_OPENS_MS: the driver may check in. */
function inCheckInWindow(blocks: OfferItem[], now: number): boolean {
  return blocks.some((b) => b.startTime - CHECK_IN_OPENS_MS <= now && now < b.endTime);
}

/** Re-renders every `ms`, for what depends on the clock. */
function useNow(ms: number): void {
  const [, setTick] = useState(0);
  useEffect(() => {
    const timer = setInterval(() => setTick((n) => n + 1), ms);
    return () => clearInterval(timer);
  }, [ms]);
}

type SystemState = 'searching' | 'not-searching' | 'expiring' | 'expired';

/** The one word the state card leads with: what the driver most needs to know first. */
function systemState(data: DriverDashboard): SystemState {
  if (data.expired || !data.goodStanding) return 'expired';
  if (data.searching) return data.expiringSoon ? 'expiring' : 'searching';
  return 'not-searching';
}

/** Today's and the coming days' won blocks, from the calendar. */
function WonBlocks() {
  const { t } = useTranslation();
  const calendar = useQuery(driverQueries.calendar());
  const fmt = useDriverFormat();
  const now = Date.now();
  const items = (calendar.data?.Items ?? []).filter((item) => item.endTime > now);
  const todayKey = fmt.date(now);
  const today = items.filter((item) => fmt.date(item.startTime) === todayKey);
  const later = items.filter((item) => fmt.date(item.startTime) !== todayKey);
  return (
    <section className="card" aria-labelledby="won-title">
      <h2 id="won-title">{t('flex.dashboard.upcomingTitle')}</h2>
      {calendar.data && <ZoneNote timeZone={calendar.data.timeZone} />}
      {calendar.isError ? (
        <p role="alert">{t('errors.couldNotLoadCalendar')}</p>
      ) : calendar.data && items.length === 0 ? (
        <p className="muted">{t('flex.dashboard.noUpcoming')}</p>
      ) : calendar.data ? (
        <div className="won-groups">
          {today.length > 0 && (
            <div>
              <h3>{t('flex.dashboard.today')}</h3>
              <OfferList offers={today} timeZone={calendar.data.timeZone} />
            </div>
          )}
          {later.length > 0 && (
            <div>
              <h3>{t('flex.dashboard.upcoming')}</h3>
              <OfferList offers={later.slice(0, 5)} timeZone={calendar.data.timeZone} />
            </div>
          )}
        </div>
      ) : null}
      <Link to="/flex/calendar">{t('flex.dashboard.openCalendar')}</Link>
    </section>
  );
}

function ServiceBanner({ data }: { data: DriverDashboard }) {
  const { t } = useTranslation();
  const fmt = useDriverFormat();
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

/** Staff land here after signing in, as every user does: the way to the admin area comes first. */
function AdminCard() {
  const { t } = useTranslation();
  const { state } = useAuth();
  if (state.status !== 'signed-in' || !state.user.isAdmin) return null;
  return (
    <section className="card admin-entry" aria-labelledby="admin-entry-title">
      <h2 id="admin-entry-title">{t('flex.dashboard.adminTitle')}</h2>
      <p>{t('flex.dashboard.adminText')}</p>
      <Link to="/admin" className="button primary">
        {t('flex.dashboard.adminLink')}
      </Link>
    </section>
  );
}
