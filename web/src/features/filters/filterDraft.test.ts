import { driverFiltersSchema } from '@blockcatch/sdk';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type Draft, draftErrors, filtersFromDraft, newDriverDraft } from './filterDraft.js';

const day = [{ start: '22:00', end: '02:00' }];
const draft = (overrides: Partial<Draft> = {}): Draft => ({
  warehouses: ['DAU1', 'DHO2'],
  minHourlyPay: '20',
  minBlockPay: '40',
  timeBufferMinutes: '30',
  weeklySchedule: { mon: day, tue: day, wed: day, thu: day, fri: day, sat: day, sun: [] },
  stationRules: {},
  minBlockHours: '',
  maxBlockHours: '',
  ...overrides,
});

describe('the Filters form draft', () => {
  it('makes filters with only the station fields typed, and no length limit when left empty', () => {
    const filters = filtersFromDraft(
      draft({
        stationRules: {
          DHO2: { minHourlyPay: '28', minBlockPay: '', timeBufferMinutes: '' },
          DAU1: { minHourlyPay: '', minBlockPay: '', timeBufferMinutes: '' },
          // A station no longer chosen is left out.
          DFW6: { minHourlyPay: '50', minBlockPay: '', timeBufferMinutes: '' },
        },
      }),
      'America/Chicago',
    );
    expect(filters).toMatchObject({
      stationRules: { DHO2: { minHourlyPay: 28 } },
      minBlockHours: 0,
      maxBlockHours: null,
    });
  });

  it('names each wrong field the way the gateway does, and makes no filters until fixed', () => {
    const wrong = draft({
      minHourlyPay: '',
      stationRules: { DAU1: { minHourlyPay: '-3', minBlockPay: '', timeBufferMinutes: '' } },
      minBlockHours: '5',
      maxBlockHours: '4',
    });
    expect(draftErrors(wrong)).toEqual({
      minHourlyPay: 'required-number',
      'stationRules.DAU1.minHourlyPay': 'optional-number',
      maxBlockHours: 'max-under-min',
    });
    expect(filtersFromDraft(wrong, 'UTC')).toBeNull();
    expect(draftErrors(draft({ maxBlockHours: '0' }))).toEqual({ maxBlockHours: 'hours' });
    expect(draftErrors(draft({ minBlockHours: '25' }))).toEqual({ minBlockHours: 'hours' });
  });

  it('makes no filters while a window ends when it starts', () => {
    const same = [{ start: '09:00', end: '09:00' }];
    expect(
      filtersFromDraft(draft({ weeklySchedule: { ...draft().weeklySchedule, sun: same } }), 'UTC'),
    ).toBeNull();
  });
});

describe("a new driver's filled-in filters", () => {
  it('save as they are for any list of warehouses, on the first one on the device clock', () => {
    const zones = ['America/Chicago', 'America/New_York', 'Europe/Madrid'];
    fc.assert(
      fc.property(
        fc.uniqueArray(
          fc.record({
            id: fc.string({ minLength: 1, maxLength: 8 }),
            timeZone: fc.constantFrom(...zones),
          }),
          { minLength: 1, maxLength: 8, selector: (a) => a.id },
        ),
        fc.constantFrom(...zones),
        (areas, deviceZone) => {
          const fresh = newDriverDraft(areas, deviceZone);
          expect(draftErrors(fresh)).toEqual({});
          const filters = filtersFromDraft(fresh, deviceZone);
          expect(filters).not.toBeNull();
          expect(driverFiltersSchema.safeParse(filters).success).toBe(true);
          const expected = areas.find((a) => a.timeZone === deviceZone) ?? areas[0]!;
          expect(fresh.warehouses).toEqual([expected.id]);
        },
      ),
    );
  });
});
