// /flex/calendar: the blocks the catcher won, a week at a time (Monday to Sunday, days as columns,
// today marked), with the week's blocks, hours and pay, every time on the driver's zone.
// /flex/calendar/:phoneNumber shows another driver's (the gateway allows that to admins only).
// ?week=YYYY-MM-DD opens the week holding that day.
import { formatIsoDay, formatPhone, type OfferItem, startOfDay } from '@blockcatch/sdk';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useParams, useSearchParams } from 'react-router';
import { LoadingOverlay } from '../../components/LoadingOverlay.js';
import { ZoneNote } from '../../components/OfferList.js';
import { Badge } from '../../components/ui/Badge.js';
import { useFormat } from '../../hooks/useFormat.js';
import { driverQueries, platformQueries } from '../../lib/queries.js';
import { gateway } from '../../sdk.js';
import { CalendarFeed } from './CalendarFeed.js';
import { calendarQueries } from './queries.js';
import { addDays, blocksByDay, isIsoDay, weekDays, weekTotals } from './week.js';

export default function CalendarPage() {
  const { t } = useTranslation();
  const { phoneNumber } = useParams();
  // The default range's answer names the driver's zone, which says which day today is.
  const zone = useQuery({
    ...(phoneNumber ? calendarQueries.userCalendar(phoneNumber) : driverQueries.calendar()),
    select: (calendar) => calendar.timeZone,
  });
  return (
    <main className="page calendar-page">
      <h1>{t('flex.calendar.title')}</h1>
      {phoneNumber && <p className="muted">{formatPhone(phoneNumber) || phoneNumber}</p>}
      {zone.isPending ? (
        <LoadingOverlay />
      ) : zone.isError ? (
        <p role="alert">{t('errors.couldNotLoadCalendar')}</p>
      ) : (
        <Week timeZone={zone.data} phoneNumber={phoneNumber} />
      )}
      {!phoneNumber && <CalendarFeed />}
    </main>
  );
}

function Week({ timeZone, phoneNumber }: { timeZone: string; phoneNumber: string | undefined }) {
  const { t } = useTranslation();
  const fmt = useFormat(timeZone);
  const [search, setSearch] = useSearchParams();
  const today = formatIsoDay(Date.now(), timeZone);
  const asked = search.get('week') ?? '';
  const days = weekDays(isIsoDay(asked) ? asked : today);
  const from = days[0]!;
  const to = days[6]!;
  const week = useQuery({
    queryKey: phoneNumber
      ? ['admin', 'userCalendar', phoneNumber, from]
      : ['driver', 'calendar', 'week', from],
    queryFn: () =>
      phoneNumber
        ? gateway.admin.userCalendar(phoneNumber, { from, to })
        : gateway.driver.calendar({ from, to }),
  });
  const areas = useQuery(platformQueries.serviceAreas());
  const stationName = (id: string) => areas.data?.find((a) => a.id === id)?.name ?? id;
  const goTo = (day: string | null) =>
    setSearch(
      (params) => {
        if (day === null) params.delete('week');
        else params.set('week', day);
        return params;
      },
      { replace: true },
    );
  const dayStart = (day: string) => startOfDay(day, timeZone);
  const isThisWeek = days.includes(today);

  return (
    <>
      <div className="week-nav">
        <button type="button" onClick={() => goTo(addDays(from, -7))}>
          <span aria-hidden="true">‹ </span>
          {t('flex.calendar.previousWeek')}
        </button>
        <h2 className="week-title">
          {t('flex.calendar.weekOf', {
            from: fmt.weekday(dayStart(from)),
            to: fmt.weekday(dayStart(to)),
          })}
        </h2>
        <button type="button" onClick={() => goTo(addDays(from, 7))}>
          {t('flex.calendar.nextWeek')}
          <span aria-hidden="true"> ›</span>
        </button>
        {!isThisWeek && (
          <button type="button" className="ghost" onClick={() => goTo(null)}>
            {t('flex.calendar.thisWeek')}
          </button>
        )}
      </div>
      <ZoneNote timeZone={timeZone} />
      {week.isPending ? (
        <LoadingOverlay />
      ) : week.isError ? (
        <p role="alert">{t('errors.couldNotLoadCalendar')}</p>
      ) : (
        <WeekGrid
          blocks={week.data.Items}
          days={days}
          today={today}
          timeZone={timeZone}
          stationName={stationName}
        />
      )}
    </>
  );
}

function WeekGrid({
  blocks,
  days,
  today,
  timeZone,
  stationName,
}: {
  blocks: OfferItem[];
  days: string[];
  today: string;
  timeZone: string;
  stationName(id: string): string;
}) {
  const { t } = useTranslation();
  const fmt = useFormat(timeZone);
  const byDay = blocksByDay(blocks, days, timeZone);
  const totals = weekTotals([...byDay.values()].flat());
  return (
    <>
      <p className="week-totals" data-testid="week-totals">
        {t('flex.calendar.totals', {
          count: totals.blocks,
          hours: fmt.count(Math.round(totals.hours * 10) / 10),
          pay: fmt.money(totals.pay),
        })}
      </p>
      <ol className="week-grid">
        {days.map((day) => {
          const list = byDay.get(day) ?? [];
          const isToday = day === today;
          return (
            <li
              key={day}
              className={isToday ? 'week-day today' : 'week-day'}
              aria-current={isToday ? 'date' : undefined}
            >
              <h3 className="week-day-name">
                {fmt.weekday(startOfDay(day, timeZone))}
                {isToday && <Badge tone="info">{t('flex.calendar.today')}</Badge>}
              </h3>
              {list.length === 0 ? (
                <p className="muted week-empty">{t('flex.calendar.noBlocks')}</p>
              ) : (
                <ul className="offer-list week-blocks">
                  {list.map((block) => (
                    <li key={block.offerId} className="block-card" data-offer-id={block.offerId}>
                      <span className="offer-time">
                        {fmt.timeRange(block.startTime, block.endTime)}
                      </span>
                      <strong className="block-pay">{fmt.money(block.pay)}</strong>
                      <span className="muted block-station">
                        {stationName(block.serviceAreaId)}
                      </span>
                    </li>
                  ))}
                </ul>
              )}
            </li>
          );
        })}
      </ol>
    </>
  );
}
