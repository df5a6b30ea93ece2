// The caps and choices of the Filters page as typed: most hours per day and per week, and the
// amount above which any block is taken. Empty means off; each error is keyed by its field.
import {
  type DriverFilters,
  MAX_HOURS_PER_DAY,
  MAX_HOURS_PER_WEEK,
  type SavedDriverFilters,
} from '@blockcatch/sdk';

export interface CapsDraft {
  maxHoursPerDay: string;
  maxHoursPerWeek: string;
  anyBlockPay: string;
}

export type CapsField = keyof CapsDraft;
export type Caps = Pick<DriverFilters, CapsField>;

export const EMPTY_CAPS: CapsDraft = { maxHoursPerDay: '', maxHoursPerWeek: '', anyBlockPay: '' };

const LIMITS: Record<CapsField, number> = {
  maxHoursPerDay: MAX_HOURS_PER_DAY,
  maxHoursPerWeek: MAX_HOURS_PER_WEEK,
  anyBlockPay: 10_000,
};

export function capsDraftFromSaved(saved: SavedDriverFilters): CapsDraft {
  const text = (n: number | undefined) => (n === undefined ? '' : String(n));
  return {
    maxHoursPerDay: text(saved.maxHoursPerDay),
    maxHoursPerWeek: text(saved.maxHoursPerWeek),
    anyBlockPay: text(saved.anyBlockPay),
  };
}

/** The fields typed wrong: each must be empty, or a number over 0 and at most its limit. */
export function capsDraftErrors(draft: CapsDraft): Partial<Record<CapsField, true>> {
  const errors: Partial<Record<CapsField, true>> = {};
  for (const field of Object.keys(LIMITS) as CapsField[]) {
    const text = draft[field].trim();
    if (text === '') continue;
    const value = Number(text);
    if (!(value > 0 && value <= LIMITS[field])) errors[field] = true;
  }
  return errors;
}

/** The filter fields a valid draft stands for; an empty field is left out, which is off. */
export function capsFromDraft(draft: CapsDraft): Caps {
  const caps: Caps = {};
  for (const field of Object.keys(LIMITS) as CapsField[]) {
    const text = draft[field].trim();
    if (text !== '') caps[field] = Number(text);
  }
  return caps;
}
