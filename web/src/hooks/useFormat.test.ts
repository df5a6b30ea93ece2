import { describe, expect, it } from 'vitest';
import { formatters } from './useFormat.js';

const DEC_21_2026_NOON_NY = Date.UTC(2026, 11, 21, 17, 0);

describe('formatters', () => {
  it('write dates as a person reads them in each language', () => {
    expect(formatters('en', 'America/New_York').date(DEC_21_2026_NOON_NY)).toBe('Dec 21, 2026');
    expect(formatters('es', 'America/New_York').date(DEC_21_2026_NOON_NY)).toBe('21 dic 2026');
  });

  it('put the date on the given zone’s calendar', () => {
    const lateEvening = Date.UTC(2026, 11, 22, 3, 30);
    expect(formatters('en', 'America/Los_Angeles').date(lateEvening)).toBe('Dec 21, 2026');
    expect(formatters('en', 'UTC').date(lateEvening)).toBe('Dec 22, 2026');
  });

  it('write US phones as +1 (xxx) xxx-xxxx and leave others as they came', () => {
    const { phone } = formatters('en');
    expect(phone('+13055550101')).toBe('+1 (305) 555-0101');
    expect(phone('+441234')).toBe('+441234');
  });

  it('write US dollars as $25.00 in either language', () => {
    expect(formatters('en').money(25)).toBe('$25.00');
    expect(formatters('es').money(25)).toBe('$25.00');
    expect(formatters('es').money(1234.5)).toBe('$1,234.50');
  });

  it('mark times with the zone only when it is not the device’s', () => {
    const start = Date.UTC(2026, 11, 21, 12, 15);
    const end = start + 4.5 * 3_600_000;
    const away = formatters('en', 'America/Chicago', 'America/New_York');
    expect(away.timeRange(start, end).replace(/\s/g, ' ')).toBe('6:15 – 10:45 AM CST');
    expect(away.zoneName).toBe('Central Time');
    const home = formatters('en', 'America/Chicago', 'America/Chicago');
    expect(home.timeRange(start, end).replace(/\s/g, ' ')).toBe('6:15 – 10:45 AM');
    expect(home.time(start).replace(/\s/g, ' ')).toBe('6:15 AM');
    expect(home.zoneName).toBeNull();
    expect(formatters('es', 'America/Chicago', 'America/New_York').zoneName).toBe('hora central');
  });
});
