// A driver's won blocks as an iCalendar feed (RFC 5545) that Google or Apple Calendar subscribes
// to: one event per block, in UTC, with the station and the pay, in the driver's language. Pure.
import en from '../../../../locales/en.json' with { type: 'json' };
import es from '../../../../locales/es.json' with { type: 'json' };

export interface FeedBlock {
  offerId: string;
  /** The station's name as drivers know it, e.g. "Austin (DAU1)". */
  station: string;
  startTime: number;
  endTime: number;
  pay: number;
}

const HOUR_MS = 3_600_000;

export function blocksCalendar(
  blocks: readonly FeedBlock[],
  options: { language: string; now: number },
): string {
  const spanish = options.language.startsWith('es');
  const texts = (spanish ? es : en).flex.calendar.feed;
  const money = new Intl.NumberFormat(spanish ? 'es-US' : 'en-US', {
    style: 'currency',
    currency: 'USD',
  });
  const lines = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//BlockCatch//Won blocks//EN',
    'CALSCALE:GREGORIAN',
    'METHOD:PUBLISH',
    `X-WR-CALNAME:${text(texts.name)}`,
    // Calendar apps read these as how often to look again.
    'REFRESH-INTERVAL;VALUE=DURATION:PT1H',
    'X-PUBLISHED-TTL:PT1H',
  ];
  for (const block of blocks) {
    const hours = (block.endTime - block.startTime) / HOUR_MS;
    const values = {
      station: block.station,
      pay: money.format(block.pay),
      hourly: money.format(hours > 0 ? block.pay / hours : block.pay),
    };
    lines.push(
      'BEGIN:VEVENT',
      `UID:${text(block.offerId)}@blockcatch`,
      `DTSTAMP:${utc(options.now)}`,
      `DTSTART:${utc(block.startTime)}`,
      `DTEND:${utc(block.endTime)}`,
      `SUMMARY:${text(fill(texts.summary, values))}`,
      `LOCATION:${text(block.station)}`,
      `DESCRIPTION:${text(fill(texts.description, values))}`,
      'TRANSP:OPAQUE',
      'END:VEVENT',
    );
  }
  lines.push('END:VCALENDAR');
  return `${lines.map(fold).join('\r\n')}\r\n`;
}

const fill = (template: string, values: Record<string, string>) =>
  template.replace(/\{\{(\w+)\}\}/g, (_, name: string) => values[name] ?? '');

/** An instant as an iCalendar UTC date-time: 20261201T200000Z. */
function utc(ts: number): string {
  return new Date(ts)
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');
}

/** A TEXT value: backslash, semicolon, comma and line breaks escaped. */
function text(value: string): string {
  let out = '';
  for (const ch of value) {
    if (ch === '\\' || ch === ';' || ch === ',') out += `\\${ch}`;
    else if (ch === '\n') out += '\\n';
    else if (ch !== '\r') out += ch;
  }
  return out;
}

/** Lines longer than 75 octets folded with CRLF and a space, never inside a UTF-8 character. */
function fold(line: string): string {
  if (Buffer.byteLength(line) <= 75) return line;
  const parts: string[] = [];
  let current = '';
  let size = 0;
  for (const ch of line) {
    const bytes = Buffer.byteLength(ch);
    // Continuation lines start with a space, which counts toward their 75.
    if (size + bytes > (parts.length === 0 ? 75 : 74)) {
      parts.push(current);
      current = '';
      size = 0;
    }
    current += ch;
    size += bytes;
  }
  parts.push(current);
  return parts.join('\r\n ');
}
