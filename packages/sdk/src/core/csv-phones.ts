// The phone lists an admin hands a bulk send (`--only`, `--exclude`): rows already split by a CSV
// reader, checked one by one, so a bad row is reported by its line and skipped, not fatal.
import { normalizePhone } from './phone.js';

/** Header names read as the phone column, compared without case, spaces, '_' or '-'. */
const PHONE_HEADERS = ['phone', 'phonenumber', 'number', 'telefono', 'teléfono', 'mobile'];

export interface PhoneRow {
  /** The row's line in the file, 1-based (the header is line 1). */
  line: number;
  record: Readonly<Record<string, string | undefined>>;
}

export interface PhoneRowProblem {
  line: number;
  value: string;
  reason: 'empty' | 'invalid';
}

export interface PhoneList {
  column: string;
  /** Normalised `+1XXXXXXXXXX`, each once, in file order. */
  phones: string[];
  problems: PhoneRowProblem[];
}

/** The header that names the phone column, or null when none does. */
export function findPhoneColumn(headers: readonly string[]): string | null {
  for (const header of headers) {
    const key = header.toLowerCase().replace(/[\s_-]/g, '');
    if (PHONE_HEADERS.includes(key)) return header;
  }
  return null;
}

/** Every row's phone normalised; empty and non-US numbers become problems with their line. */
export function collectPhones(rows: readonly PhoneRow[], column: string): PhoneList {
  const seen = new Set<string>();
  const phones: string[] = [];
  const problems: PhoneRowProblem[] = [];
  for (const { line, record } of rows) {
    const value = (record[column] ?? '').trim();
    if (value === '') {
      problems.push({ line, value, reason: 'empty' });
      continue;
    }
    const phone = normalizePhone(value);
    if (phone === null) {
      problems.push({ line, value, reason: 'invalid' });
      continue;
    }
    if (!seen.has(phone)) {
      seen.add(phone);
      phones.push(phone);
    }
  }
  return { column, phones, problems };
}
