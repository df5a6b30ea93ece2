// Search as you type over a loaded table: the fields search reads, lower-cased once into one
// joined string, so each keystroke is a run of `indexOf` calls instead of a pattern per field.

import { hasNormalizedPhone } from './phone.js';
import {
  digitsOf,
  matchesRecipientPattern,
  phoneQuery,
  recipientPattern,
  type SearchableRow,
} from './search.js';

/** Ends each field and row in the joined text; a query holding it is answered by the fallback. */
const SEPARATOR = '\u0000';
/**
 * Within Latin-1, lower-casing maps each character to one character of the same range, and two
 * characters fold together under a case-insensitive Unicode pattern exactly when their lower cases
 * agree; outside it (the Kelvin sign, long s, dotted I…) they may not, so such text and queries
 * are matched by the pattern itself.
 */
const BEYOND_LATIN1 = /[\u0100-\uffff]/;
/** Ends each row's phone digits in the joined digits, so a piece of a number never spans two rows. */
const DIGITS_END = '|';
/**
 * Below this share of the table's rows, a narrowing keystroke reads each candidate's own text
 * instead of searching the joined text for the next hit, which may lie far past rows not asked about.
 */
const SPARSE_SHARE = 1 / 4;
/** Enough earlier answers to narrow from while typing, and to step back on backspace. */
const REMEMBERED_QUERIES = 32;

export interface RecipientSearch<T> {
  /** Exactly `searchRecipients(rows, query)`, answered from the index. */
  search(query: string): T[];
}

interface Answer {
  /** The trimmed query, lower-cased when Latin-1 (the index then ignores case the same way). */
  key: string;
  /** Rows whose text matched, in order; phone-number matches are added per query. */
  matches: Uint32Array;
}

/**
 * Builds the search index of `rows` once (the table is read again only for rows with text beyond
 * Latin-1, whose case folding the index does not model). Each query that extends an earlier one is
 * answered from that one's matches: a row that contains the longer query contains the shorter.
 */
export function createRecipientSearch<T extends SearchableRow>(
  rows: readonly T[],
): RecipientSearch<T> {
  const index = buildIndex(rows);
  const { text, starts, foreign } = index;
  const sparseBelow = rows.length * SPARSE_SHARE;
  let history: Answer[] = [];

  function textMatches(key: string, raw: string): Uint32Array {
    const exact = history.find((answer) => answer.key === key);
    if (exact) return exact.matches;
    let from: Uint32Array | null = null;
    for (const answer of history) {
      if (key.startsWith(answer.key) && (from === null || answer.matches.length < from.length)) {
        from = answer.matches;
      }
    }
    const indexed = !BEYOND_LATIN1.test(raw) && !raw.includes(SEPARATOR);
    let matches: Uint32Array;
    if (!indexed) matches = scanRows(rows, raw, from);
    else if (from === null && key.length === 1) matches = rowsWithCharacter(index, rows, key, raw);
    else {
      // A first query of several letters starts from the rows holding its rarest letter.
      from ??= rowsWithCharacter(index, rows, rarestCharacter(index, key), raw);
      matches =
        from.length < sparseBelow
          ? scanCandidates(text, starts, foreign, rows, key, raw, from)
          : scanIndex(text, starts, foreign, rows, key, raw, from);
    }
    history.push({ key, matches });
    if (history.length > REMEMBERED_QUERIES) history.shift();
    return matches;
  }

  return {
    search(query) {
      const raw = query.trim();
      if (raw === '') {
        // A cleared box starts a new query: earlier answers are not worth keeping.
        history = [];
        return rows.slice();
      }
      const key = BEYOND_LATIN1.test(raw) ? raw : raw.toLowerCase();
      const matches = textMatches(key, raw);
      const phone = phoneQuery(raw);
      if (phone === null) return pick(rows, matches);
      return pickMerged(rows, matches, phoneMatches(index, rows, phone.phone, phone.digits));
    },
  };
}

interface Index {
  /** Every Latin-1 row's fields, lower-cased, each followed by the separator. */
  text: string;
  /** Where row i's fields start in `text`; `starts[rows.length]` is the text's length. */
  starts: Uint32Array;
  /** 1 for rows with text beyond Latin-1: their part of `text` is empty and they are matched by pattern. */
  foreign: Uint8Array;
  /** Per Latin-1 character, a bit per row: whether the row's indexed text holds it. */
  characterRows: (Uint32Array | undefined)[];
  /** How many rows hold each character. */
  characterCounts: Uint32Array;
  /** The `foreign` rows as bits, to be tried with every character, and how many they are. */
  foreignRows: Uint32Array;
  foreignCount: number;
  /** Every row's phone digits (ASCII, as phone search compares them), each followed by DIGITS_END. */
  digits: string;
  /** Where row i's digits start in `digits`; `digitStarts[rows.length]` is its length. */
  digitStarts: Uint32Array;
}

function buildIndex(rows: readonly SearchableRow[]): Index {
  const parts: string[] = [];
  const starts = new Uint32Array(rows.length + 1);
  const foreign = new Uint8Array(rows.length);
  const words = Math.ceil(rows.length / 32);
  const characterRows: (Uint32Array | undefined)[] = new Array(256).fill(undefined);
  const characterCounts = new Uint32Array(256);
  const foreignRows = new Uint32Array(words);
  const digitParts: string[] = [];
  const digitStarts = new Uint32Array(rows.length + 1);
  let length = 0;
  let digitLength = 0;
  for (let i = 0; i < rows.length; i++) {
    starts[i] = length;
    const row = rows[i]!;
    const phoneDigits = digitsOf(row.phoneNumber);
    digitStarts[i] = digitLength;
    digitParts.push(phoneDigits, DIGITS_END);
    digitLength += phoneDigits.length + 1;
    const fields =
      row.name +
      SEPARATOR +
      row.phoneNumber +
      SEPARATOR +
      (row.humanRegion ?? '') +
      SEPARATOR +
      (row.driverOptions?.deliveryArea ?? '') +
      SEPARATOR +
      (row.referral ?? '') +
      SEPARATOR;
    const word = i >>> 5;
    const bit = 1 << (i & 31);
    if (BEYOND_LATIN1.test(fields)) {
      foreign[i] = 1;
      foreignRows[word]! |= bit;
      continue;
    }
    const lower = fields.toLowerCase();
    for (let c = 0; c < lower.length; c++) {
      const code = lower.charCodeAt(c);
      let set = characterRows[code];
      if (set === undefined) {
        set = new Uint32Array(words);
        characterRows[code] = set;
      }
      if ((set[word]! & bit) === 0) {
        set[word]! |= bit;
        characterCounts[code]!++;
      }
    }
    parts.push(lower);
    length += lower.length;
  }
  starts[rows.length] = length;
  digitStarts[rows.length] = digitLength;
  return {
    text: parts.join(''),
    starts,
    foreign,
    characterRows,
    characterCounts,
    foreignRows,
    foreignCount: countBits(foreignRows),
    digits: digitParts.join(''),
    digitStarts,
  };
}

function rarestCharacter(index: Index, key: string): string {
  let rarest = key[0]!;
  for (const character of key) {
    if (
      index.characterCounts[character.charCodeAt(0)]! < index.characterCounts[rarest.charCodeAt(0)]!
    ) {
      rarest = character;
    }
  }
  return rarest;
}

/**
 * The rows whose indexed text holds `character`, with the foreign rows matching `raw`'s pattern
 * when `character` is the whole query, or all of them (as candidates) when it is a part.
 */
function rowsWithCharacter(
  index: Index,
  rows: readonly SearchableRow[],
  character: string,
  raw: string,
): Uint32Array {
  const set = index.characterRows[character.charCodeAt(0)];
  const { foreignRows, characterCounts } = index;
  const picked = new Uint32Array(
    characterCounts[character.charCodeAt(0)]! + countBits(foreignRows),
  );
  const whole = raw.length === 1;
  let pattern: RegExp | null = null;
  let count = 0;
  for (let w = 0; w < foreignRows.length; w++) {
    let bits = ((set?.[w] ?? 0) | foreignRows[w]!) >>> 0;
    while (bits !== 0) {
      const low = bits & -bits;
      const row = w * 32 + (31 - Math.clz32(low));
      bits = (bits ^ low) >>> 0;
      if (whole && (foreignRows[w]! & low) !== 0) {
        pattern ??= recipientPattern(raw);
        if (!matchesRecipientPattern(rows[row]!, pattern)) continue;
      }
      picked[count++] = row;
    }
  }
  return count === picked.length ? picked : picked.slice(0, count);
}

function countBits(words: Uint32Array): number {
  let count = 0;
  for (let w = 0; w < words.length; w++) {
    let v = words[w]!;
    v -= (v >>> 1) & 0x55555555;
    v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
    count += (((v + (v >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
  }
  return count;
}

/**
 * Rows (all, or those in `from`) whose indexed text holds `key`. Each `indexOf` answer is the next
 * hit at or after a row's start, so one answer settles every row before it: the scan reads the
 * text at most once whatever the number of candidates.
 */
function scanIndex(
  text: string,
  starts: Uint32Array,
  foreign: Uint8Array,
  rows: readonly SearchableRow[],
  key: string,
  raw: string,
  from: Uint32Array | null,
): Uint32Array {
  const total = from === null ? rows.length : from.length;
  const picked = new Uint32Array(total);
  let count = 0;
  let hit = -1;
  let pattern: RegExp | null = null;
  for (let c = 0; c < total; c++) {
    const row = from === null ? c : from[c]!;
    if (foreign[row] === 1) {
      pattern ??= recipientPattern(raw);
      if (matchesRecipientPattern(rows[row]!, pattern)) picked[count++] = row;
      continue;
    }
    const start = starts[row]!;
    if (hit < start) {
      hit = text.indexOf(key, start);
      if (hit === -1) hit = Number.POSITIVE_INFINITY;
    }
    if (hit < starts[row + 1]!) picked[count++] = row;
  }
  return picked.slice(0, count);
}

/**
 * Rows `from` (sorted) whose indexed text holds `key`, each read within its own text: for few
 * candidates, cheaper than `scanIndex`, whose searches run on through rows not asked about.
 */
function scanCandidates(
  text: string,
  starts: Uint32Array,
  foreign: Uint8Array,
  rows: readonly SearchableRow[],
  key: string,
  raw: string,
  from: Uint32Array,
): Uint32Array {
  const picked = new Uint32Array(from.length);
  const first = key.charCodeAt(0);
  let count = 0;
  let pattern: RegExp | null = null;
  for (let c = 0; c < from.length; c++) {
    const row = from[c]!;
    if (foreign[row] === 1) {
      pattern ??= recipientPattern(raw);
      if (matchesRecipientPattern(rows[row]!, pattern)) picked[count++] = row;
      continue;
    }
    const last = starts[row + 1]! - key.length;
    for (let p = starts[row]!; p <= last; p++) {
      if (text.charCodeAt(p) === first && text.startsWith(key, p)) {
        picked[count++] = row;
        break;
      }
    }
  }
  return picked.slice(0, count);
}

/**
 * Rows, in order, whose phone number the query names: those whose digits hold `digits`, and those
 * whose number normalises to `phone`. Such a number's digits end with the ten after '+1', so one
 * search of the joined digits finds every candidate.
 */
function phoneMatches(
  index: Index,
  rows: readonly SearchableRow[],
  phone: string | null,
  digits: string | null,
): Uint32Array {
  const { digits: joined, digitStarts } = index;
  const needle = phone === null ? digits! : phone.slice(2);
  const found: number[] = [];
  let at = joined.indexOf(needle);
  while (at !== -1) {
    const row = rowAt(digitStarts, at);
    const end = digitStarts[row + 1]!;
    if (
      (digits !== null &&
        (needle === digits || joined.slice(digitStarts[row]!, end).includes(digits))) ||
      (phone !== null && hasNormalizedPhone(rows[row]!.phoneNumber, phone))
    ) {
      found.push(row);
    }
    at = joined.indexOf(needle, end);
  }
  return Uint32Array.from(found);
}

/** The row whose part of a joined text, per `starts`, holds position `at`. */
function rowAt(starts: Uint32Array, at: number): number {
  let low = 0;
  let high = starts.length - 2;
  while (low < high) {
    const middle = (low + high + 1) >>> 1;
    if (starts[middle]! <= at) low = middle;
    else high = middle - 1;
  }
  return low;
}

/** The fallback for queries the index cannot answer: the same pattern searchRecipients builds. */
function scanRows(
  rows: readonly SearchableRow[],
  raw: string,
  from: Uint32Array | null,
): Uint32Array {
  const pattern = recipientPattern(raw);
  const total = from === null ? rows.length : from.length;
  const picked = new Uint32Array(total);
  let count = 0;
  for (let c = 0; c < total; c++) {
    const row = from === null ? c : from[c]!;
    if (matchesRecipientPattern(rows[row]!, pattern)) picked[count++] = row;
  }
  return picked.slice(0, count);
}

function pick<T>(rows: readonly T[], indices: Uint32Array): T[] {
  const picked = new Array<T>(indices.length);
  for (let j = 0; j < indices.length; j++) picked[j] = rows[indices[j]!]!;
  return picked;
}

/** The rows of two sorted index lists merged in table order, each row once. */
function pickMerged<T>(rows: readonly T[], a: Uint32Array, b: Uint32Array): T[] {
  const merged: T[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    const next = j >= b.length || (i < a.length && a[i]! <= b[j]!) ? a[i++]! : b[j++]!;
    if (j < b.length && b[j] === next) j++;
    merged.push(rows[next]!);
  }
  return merged;
}
