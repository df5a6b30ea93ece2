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

  it('write money in dollars in either language', () => {
    expect(formatters('en').money(25)).toBe('$25.00');
    expect(formatters('es').money(25)).toMatch(/^25,00\s?US\$$/);
  });
});
