// The one CSV writer of the product (API exports, CLI exports, `sends show --csv`): RFC 4180 quoting
// as csv-stringify writes it, and formula neutralisation (OWASP's CSV injection rule), because the
// files are opened in spreadsheets and some fields hold words a user chose. docs/architecture.md,
// "CSV files", says why a plain phone number is left as it is.

const NEEDS_QUOTES = /[",\r\n]/;

const TAB = 0x09;
const CR = 0x0d;
const PLUS = 0x2b;
const MINUS = 0x2d;
const EQUALS = 0x3d;
const AT = 0x40;
const ZERO = 0x30;
const NINE = 0x39;
// Apple Numbers reads the full-width forms as the ASCII ones (csv-stringify's escape_formulas too).
const FULL_WIDTH_EQUALS = 0xff1d;
const FULL_WIDTH_PLUS = 0xff0b;
const FULL_WIDTH_MINUS = 0xff0d;
const FULL_WIDTH_AT = 0xff20;
const MAX_E164_DIGITS = 15;

/** Whether a spreadsheet would read the field as a formula: it starts with = + - @, a tab or a CR. */
export function startsLikeFormula(value: string): boolean {
  // A switch on the first code unit: the export asks this of four fields of a million rows.
  switch (value.charCodeAt(0)) {
    case EQUALS:
    case PLUS:
    case MINUS:
    case AT:
    case TAB:
    case CR:
    case FULL_WIDTH_EQUALS:
    case FULL_WIDTH_PLUS:
    case FULL_WIDTH_MINUS:
    case FULL_WIDTH_AT:
      return true;
    default:
      return false;
  }
}

/**
 * `+` and 1 to 15 digits: an E.164 phone number. A spreadsheet reads it as a number at worst (no
 * function, reference or link can be written with digits), and programs that read the file back
 * (the CLI's --only lists) need it as it is, so it is not prefixed.
 */
function isPlainPhone(value: string): boolean {
  if (value.length < 2 || value.length > MAX_E164_DIGITS + 1 || value.charCodeAt(0) !== PLUS) {
    return false;
  }
  for (let i = 1; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c < ZERO || c > NINE) return false;
  }
  return true;
}

/**
 * A field as it goes in a CSV file: prefixed with `'` when a spreadsheet would run it as a formula,
 * then quoted (inner quotes doubled) only for a comma, a quote or a line break, as csv-stringify does.
 */
export function csvField(value: string): string {
  const safe = startsLikeFormula(value) && !isPlainPhone(value) ? `'${value}` : value;
  return NEEDS_QUOTES.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

/** One CSV line (a record and its `\n`) from its fields, each written by csvField. */
export function csvLine(fields: readonly string[]): string {
  let line = '';
  for (let i = 0; i < fields.length; i++) line += (i === 0 ? '' : ',') + csvField(fields[i]!);
  return `${line}\n`;
}
