// Recipients a send cannot reach, marked in the review before anything is sent: a number that is
// not a US number (known here, from the SDK's phone rules), and the numbers the gateway's preview
// says it would skip (opted out, landline, invalid). A marked row is struck through and cannot be
// selected; the gateway would skip it anyway.
import { normalizePhone, type SendPreview } from '@blockcatch/sdk';
import type { HasPhone, Selection } from './selection.js';

export type SkipReason = SendPreview['skipped'][number]['reason'];
/** Row phone (as listed) → why it cannot be sent to. */
export type Marks = ReadonlyMap<string, SkipReason>;

/** How the gateway names a listed number in its answer: normalised, or as given (cut to 40). */
export function gatewayNumber(phone: string): string {
  return normalizePhone(phone) ?? phone.slice(0, 40);
}

/** The rows whose number is not a US number at all. */
export function localMarks(rows: readonly HasPhone[]): Map<string, SkipReason> {
  const marks = new Map<string, SkipReason>();
  for (const row of rows)
    if (normalizePhone(row.phoneNumber) === null) marks.set(row.phoneNumber, 'invalid');
  return marks;
}

/** The listed rows the gateway said it would skip, each with the gateway's reason. */
export function marksFromSkipped(
  rows: readonly HasPhone[],
  skipped: SendPreview['skipped'],
): Map<string, SkipReason> {
  const marks = new Map<string, SkipReason>();
  if (skipped.length === 0) return marks;
  const reasons = new Map(skipped.map((s) => [s.number, s.reason]));
  for (const row of rows) {
    const reason = reasons.get(gatewayNumber(row.phoneNumber));
    if (reason) marks.set(row.phoneNumber, reason);
  }
  return marks;
}

/** The selection without the marked rows: what a send goes to. */
export function withoutMarked(selected: Selection, marks: Marks): Selection {
  if (marks.size === 0) return selected;
  let hit = false;
  for (const phone of marks.keys()) {
    if (selected.has(phone)) {
      hit = true;
      break;
    }
  }
  if (!hit) return selected;
  const next = new Set(selected);
  for (const phone of marks.keys()) next.delete(phone);
  return next;
}

/** The rows that can be selected. */
export function selectableRows<T extends HasPhone>(rows: readonly T[], marks: Marks): readonly T[] {
  return marks.size === 0 ? rows : rows.filter((row) => !marks.has(row.phoneNumber));
}

/**
 * The numbers to preview: the selected, unmarked rows in list order, each number once. The
 * gateway renders the message for the first of them.
 */
export function previewNumbers(
  rows: readonly HasPhone[],
  selected: Selection,
  marks: Marks,
): { number: string }[] {
  const seen = new Set<string>();
  const numbers: { number: string }[] = [];
  for (const row of rows) {
    if (!selected.has(row.phoneNumber) || marks.has(row.phoneNumber)) continue;
    const number = gatewayNumber(row.phoneNumber);
    if (seen.has(number)) continue;
    seen.add(number);
    numbers.push({ number: row.phoneNumber });
  }
  return numbers;
}

/** A short fingerprint of a list of numbers, to key the preview that was asked for them. */
export function numbersKey(numbers: readonly { number: string }[]): string {
  // FNV-1a over every character: a few milliseconds for 100,000 numbers.
  let hash = 0x811c9dc5;
  for (const { number } of numbers) {
    for (let i = 0; i < number.length; i++) {
      hash ^= number.charCodeAt(i);
      hash = Math.imul(hash, 0x01000193);
    }
    hash ^= 10;
    hash = Math.imul(hash, 0x01000193);
  }
  return `${numbers.length}:${(hash >>> 0).toString(36)}`;
}
