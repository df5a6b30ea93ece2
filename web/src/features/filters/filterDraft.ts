// The Filters page's form state: what the driver typed, as text, and the filters it makes. Errors
// are keyed by field so each shows beside its input; the same check decides whether the preview
// can ask the gateway about the draft.
import {
  type DriverFilters,
  everyDay,
  MAX_BLOCK_HOURS,
  type SavedDriverFilters,
} from '@blockcatch/sdk';
import {
  type CapsDraft,
  capsDraftErrors,
  capsDraftFromSaved,
  capsFromDraft,
  EMPTY_CAPS,
} from './capsDraft.js';

/**
 * The pay rules a driver sets in general and may override per warehouse. A new rule is one more
 * key here (and its field in PayRuleFields): the draft, its checks and the filters follow.
 */
export const PAY_RULES = ['minHourlyPay', 'minBlockPay', 'timeBufferMinutes'] as const;
export type PayRule = (typeof PAY_RULES)[number];

/** A station's own minimums as typed: an empty field keeps the general value. */
export type StationDraft = Record<PayRule, string>;

export interface Draft {
  warehouses: string[];
  minHourlyPay: string;
  minBlockPay: string;
  timeBufferMinutes: string;
  weeklySchedule: DriverFilters['weeklySchedule'];
  stationRules: Record<string, StationDraft>;
  /** Empty: no shortest / no longest. */
  minBlockHours: string;
  maxBlockHours: string;
  /** Caps and choices, checked by their own fields (capsDraft.ts); none typed when left out. */
  caps?: CapsDraft;
}

/** Which message a field shows. */
export type DraftError = 'required-number' | 'optional-number' | 'hours' | 'max-under-min';

export const EMPTY_STATION: StationDraft = {
  minHourlyPay: '',
  minBlockPay: '',
  timeBufferMinutes: '',
};

/** A warehouse's own rules as typed; an id such as `constructor` is a warehouse, not a property. */
export function ownRule(draft: Draft, id: string): StationDraft | undefined {
  return Object.hasOwn(draft.stationRules, id) ? draft.stationRules[id] : undefined;
}

/**
 * What a driver who never saved filters starts from, valid as it is: the first warehouse on the
 * device's clock (else the first listed), any pay, a 30-minute buffer, every day 06:00–22:00.
 */
const NEW_DRIVER_RULES: Record<PayRule, number> = {
  minHourlyPay: 0,
  minBlockPay: 0,
  timeBufferMinutes: 30,
};

export function newDriverDraft(
  areas: readonly { id: string; timeZone: string }[],
  deviceZone: string,
): Draft {
  const first = areas.find((a) => a.timeZone === deviceZone) ?? areas[0];
  return {
    warehouses: first ? [first.id] : [],
    minHourlyPay: String(NEW_DRIVER_RULES.minHourlyPay),
    minBlockPay: String(NEW_DRIVER_RULES.minBlockPay),
    timeBufferMinutes: String(NEW_DRIVER_RULES.timeBufferMinutes),
    weeklySchedule: everyDay([{ start: '06:00', end: '22:00' }]),
    stationRules: {},
    minBlockHours: '',
    maxBlockHours: '',
  };
}

export function draftFromSaved(saved: SavedDriverFilters): Draft {
  const text = (n: number | undefined) => (n === undefined ? '' : String(n));
  return {
    warehouses: saved.warehouses,
    minHourlyPay: String(saved.minHourlyPay),
    minBlockPay: String(saved.minBlockPay),
    timeBufferMinutes: String(saved.timeBufferMinutes),
    weeklySchedule: saved.weeklySchedule,
    stationRules: Object.fromEntries(
      Object.entries(saved.stationRules).map(([id, rule]) => [
        id,
        Object.fromEntries(PAY_RULES.map((key) => [key, text(rule[key])])) as StationDraft,
      ]),
    ),
    minBlockHours: saved.minBlockHours === 0 ? '' : String(saved.minBlockHours),
    maxBlockHours: saved.maxBlockHours === null ? '' : String(saved.maxBlockHours),
    caps: capsDraftFromSaved(saved),
  };
}

const isAmount = (text: string) => text.trim() !== '' && Number(text) >= 0;

/**
 * The errors of a draft by field: `minHourlyPay`, `stationRules.DAU1.minBlockPay`,
 * `maxBlockHours`… (the names the gateway uses). Warehouses and windows are checked apart.
 */
export function draftErrors(draft: Draft): Record<string, DraftError> {
  const errors: Record<string, DraftError> = {};
  for (const field of PAY_RULES) {
    if (!isAmount(draft[field])) errors[field] = 'required-number';
  }
  for (const id of draft.warehouses) {
    const rule = ownRule(draft, id);
    if (!rule) continue;
    for (const field of PAY_RULES) {
      if (rule[field].trim() !== '' && !isAmount(rule[field])) {
        errors[`stationRules.${id}.${field}`] = 'optional-number';
      }
    }
  }
  // Empty means no limit; the longest block, when given, is more than 0 hours.
  const min = draft.minBlockHours.trim();
  const max = draft.maxBlockHours.trim();
  if (min !== '' && !(Number(min) >= 0 && Number(min) <= MAX_BLOCK_HOURS)) {
    errors.minBlockHours = 'hours';
  }
  if (max !== '' && !(Number(max) > 0 && Number(max) <= MAX_BLOCK_HOURS)) {
    errors.maxBlockHours = 'hours';
  }
  if (
    !errors.minBlockHours &&
    !errors.maxBlockHours &&
    draft.maxBlockHours.trim() !== '' &&
    Number(draft.maxBlockHours) < Number(draft.minBlockHours || 0)
  ) {
    errors.maxBlockHours = 'max-under-min';
  }
  return errors;
}

/** Whether every window has a start and an end and does not end when it starts. */
export function windowsValid(schedule: DriverFilters['weeklySchedule']): boolean {
  return Object.values(schedule).every((windows) =>
    windows.every((w) => w.start !== '' && w.end !== '' && w.start !== w.end),
  );
}

/** A typed rule as the gateway takes it: minutes are whole. */
const ruleValue = (key: PayRule, text: string) =>
  key === 'timeBufferMinutes' ? Math.round(Number(text)) : Number(text);

/** The filters a valid draft stands for, or null while a field is wrong or no warehouse is chosen. */
export function filtersFromDraft(draft: Draft, timeZone: string): DriverFilters | null {
  if (draft.warehouses.length === 0 || !windowsValid(draft.weeklySchedule)) return null;
  if (Object.keys(draftErrors(draft)).length > 0) return null;
  const caps = draft.caps ?? EMPTY_CAPS;
  if (Object.keys(capsDraftErrors(caps)).length > 0) return null;
  const stationRules: NonNullable<DriverFilters['stationRules']> = {};
  for (const id of draft.warehouses) {
    const rule = ownRule(draft, id);
    if (!rule) continue;
    const own: (typeof stationRules)[string] = {};
    for (const key of PAY_RULES) {
      if (rule[key].trim() !== '') own[key] = ruleValue(key, rule[key]);
    }
    if (Object.keys(own).length > 0) stationRules[id] = own;
  }
  return {
    warehouses: draft.warehouses,
    minHourlyPay: ruleValue('minHourlyPay', draft.minHourlyPay),
    minBlockPay: ruleValue('minBlockPay', draft.minBlockPay),
    timeBufferMinutes: ruleValue('timeBufferMinutes', draft.timeBufferMinutes),
    weeklySchedule: draft.weeklySchedule,
    timeZone,
    stationRules,
    minBlockHours: draft.minBlockHours.trim() === '' ? 0 : Number(draft.minBlockHours),
    maxBlockHours: draft.maxBlockHours.trim() === '' ? null : Number(draft.maxBlockHours),
    ...capsFromDraft(caps),
  };
}
