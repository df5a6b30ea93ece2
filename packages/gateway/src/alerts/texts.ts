// What each alert says, in the driver's language (the texts live in locales/*.json under
// flex.alerts.texts), which switch governs it, the key that makes it once-only, whether it waits
// for quiet hours, and the page its link opens. Pure: the alerts module supplies the facts.
import type { AlertKind } from '@blockcatch/sdk';
import en from '../../../../locales/en.json' with { type: 'json' };
import es from '../../../../locales/es.json' with { type: 'json' };

export type AlertEvent =
  | {
      kind: 'block-won';
      offerId: string;
      /** The station's name as drivers know it, e.g. "Austin (DAU1)". */
      station: string;
      startTime: number;
      endTime: number;
      pay: number;
      /** The station's zone: a block's hours are read where it happens. */
      timeZone: string;
    }
  /** The platform wants a new one-time code; `at` is when the link was marked (one episode). */
  | { kind: 'needs-code'; at: number }
  /** The platform asks for a check in its app; `at` is when the link was marked (one episode). */
  | { kind: 'needs-verification'; at: number }
  /** The platform refused the session and its refresh; `at` is when the link was last written. */
  | { kind: 'disconnected'; at: number }
  | { kind: 'throttled'; until: number }
  | { kind: 'expiring'; expiresAt: number }
  | { kind: 'payment-failed'; paymentId: string; amountCents: number }
  | {
      kind: 'weekly-digest';
      /** The ISO week it covers, e.g. 2026-W48: one digest per week. */
      week: string;
      change: { field: 'minHourlyPay' | 'minBlockPay'; value: number };
      count: number;
      pay: number;
    };

/** The driver's switch for each event. */
export const ALERT_SWITCH: Record<AlertEvent['kind'], AlertKind> = {
  'block-won': 'blockWon',
  'needs-code': 'account',
  'needs-verification': 'account',
  disconnected: 'account',
  throttled: 'throttled',
  expiring: 'expiring',
  'payment-failed': 'paymentFailed',
  'weekly-digest': 'weeklyDigest',
};

/**
 * Alerts about something happening now (a block won, searching stopped or paused) go at any hour:
 * held until 8 am they would arrive after the fact. Reminders wait for the driver's quiet hours.
 */
export const AT_ANY_HOUR: ReadonlySet<AlertEvent['kind']> = new Set([
  'block-won',
  'needs-code',
  'needs-verification',
  'disconnected',
  'throttled',
]);

/** The page each alert links to, under the public web address. */
const LINKS: Record<AlertEvent['kind'], string> = {
  'block-won': '/flex/calendar',
  'needs-code': '/flex/login',
  'needs-verification': '/flex/dashboard',
  disconnected: '/flex/login',
  throttled: '',
  expiring: '/payment',
  'payment-failed': '/flex/billing',
  'weekly-digest': '/flex/settings',
};

/** Once per event: the send job's idempotency key for this driver. */
export function alertKey(event: AlertEvent): string {
  switch (event.kind) {
    case 'block-won':
      return `alert:block-won:${event.offerId}`;
    case 'needs-code':
    case 'needs-verification':
    case 'disconnected':
      return `alert:${event.kind}:${event.at}`;
    case 'throttled':
      return `alert:throttled:${event.until}`;
    case 'expiring':
      return `alert:expiring:${event.expiresAt}`;
    case 'payment-failed':
      return `alert:payment-failed:${event.paymentId}`;
    case 'weekly-digest':
      return `alert:weekly-digest:${event.week}`;
  }
}

const fill = (template: string, values: Record<string, string>) =>
  template.replace(/\{\{(\w+)\}\}/g, (_, name: string) => values[name] ?? '');

const dollars = (amount: number) => (Number.isInteger(amount) ? String(amount) : amount.toFixed(2));

/**
 * The alert's text. `timeZone` is the driver's (their filters', else their region's); a won block is
 * told in its station's zone. `baseUrl` is the web app's public address.
 */
export function alertText(
  event: AlertEvent,
  options: { language: string; timeZone: string; baseUrl: string },
): string {
  const spanish = options.language.startsWith('es');
  const texts = (spanish ? es : en).flex.alerts.texts;
  const locale = spanish ? 'es-US' : 'en-US';
  const zone = event.kind === 'block-won' ? event.timeZone : options.timeZone;
  const day = (ts: number) =>
    new Intl.DateTimeFormat(locale, {
      weekday: 'short',
      month: 'short',
      day: 'numeric',
      timeZone: zone,
    }).format(ts);
  const time = (ts: number) =>
    new Intl.DateTimeFormat(locale, { hour: 'numeric', minute: '2-digit', timeZone: zone }).format(
      ts,
    );
  const link = `${options.baseUrl}${LINKS[event.kind]}`;
  switch (event.kind) {
    case 'block-won':
      return fill(texts.blockWon, {
        day: day(event.startTime),
        start: time(event.startTime),
        end: time(event.endTime),
        station: event.station,
        pay: dollars(event.pay),
        link,
      });
    case 'needs-code':
      return fill(texts.needsCode, { link });
    case 'needs-verification':
      return fill(texts.needsVerification, { link });
    case 'disconnected':
      return fill(texts.disconnected, { link });
    case 'throttled':
      return fill(texts.throttled, { time: time(event.until) });
    case 'expiring':
      return fill(texts.expiring, { day: day(event.expiresAt), time: time(event.expiresAt), link });
    case 'payment-failed':
      return fill(texts.paymentFailed, { amount: dollars(event.amountCents / 100), link });
    case 'weekly-digest':
      return fill(texts.weeklyDigest, {
        change: fill(event.change.field === 'minHourlyPay' ? texts.lowerHourly : texts.lowerBlock, {
          value: dollars(event.change.value),
        }),
        count: String(event.count),
        pay: dollars(Math.round(event.pay)),
        link,
      });
  }
}
