import { describe, expect, it } from 'vitest';
import { capsDraftErrors, EMPTY_CAPS } from './capsDraft.js';
import { type Draft, filtersFromDraft } from './filterDraft.js';

const day = [{ start: '06:00', end: '22:00' }];
const draft = (caps: Draft['caps']): Draft => ({
  warehouses: ['DAU1'],
  minHourlyPay: '20',
  minBlockPay: '40',
  timeBufferMinutes: '30',
  weeklySchedule: { mon: day, tue: day, wed: day, thu: day, fri: day, sat: day, sun: [] },
  stationRules: {},
  minBlockHours: '',
  maxBlockHours: '',
  caps,
});

describe('the caps and choices draft', () => {
  it('leaves empty caps out of the filters, which turns them off', () => {
    const filters = filtersFromDraft(draft(EMPTY_CAPS), 'UTC');
    expect(filters).not.toBeNull();
    expect(filters).not.toHaveProperty('maxHoursPerDay');
    expect(filters).not.toHaveProperty('maxHoursPerWeek');
    expect(filters).not.toHaveProperty('anyBlockPay');
    // A draft made before the caps existed reads the same.
    expect(filtersFromDraft(draft(undefined), 'UTC')).toEqual(filters);
  });

  it('makes filters with the caps typed', () => {
    const typed = { maxHoursPerDay: '8', maxHoursPerWeek: ' 37.5 ', anyBlockPay: '150' };
    expect(filtersFromDraft(draft(typed), 'UTC')).toMatchObject({
      maxHoursPerDay: 8,
      maxHoursPerWeek: 37.5,
      anyBlockPay: 150,
    });
  });

  it('names each cap typed out of range and makes no filters until it is fixed', () => {
    const wrong = { maxHoursPerDay: '25', maxHoursPerWeek: '0', anyBlockPay: 'abc' };
    expect(capsDraftErrors(wrong)).toEqual({
      maxHoursPerDay: true,
      maxHoursPerWeek: true,
      anyBlockPay: true,
    });
    expect(filtersFromDraft(draft(wrong), 'UTC')).toBeNull();
    expect(capsDraftErrors({ ...EMPTY_CAPS, maxHoursPerWeek: '168' })).toEqual({});
  });
});
