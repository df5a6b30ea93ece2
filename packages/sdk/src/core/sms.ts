// SMS segmentation as carriers do it: the encoding a text needs and how many parts it is sent in,
// for the send screens' counters and the 'Limit characters' rule (docs/product.md, 'Messages and
// segments').

export type SmsEncoding = 'GSM-7' | 'UCS-2';

export interface SmsSegmentation {
  encoding: SmsEncoding;
  /** Septets for GSM-7 (escaped characters count two), UTF-16 code units for UCS-2. */
  units: number;
  segments: number;
  /** The limit the message is measured against: 160/70 while single-part, 153/67 once multipart. */
  perSegment: number;
  /**
   * How many more single-unit characters fit in the last part before another part is needed,
   * measured against `perSegment`; a two-unit character (escape or surrogate pair) needs at least 2,
   * since it is never split. Earlier parts may carry fewer units than `perSegment`, so this is not
   * `segments × perSegment − units`.
   *
   * At the single-to-multipart boundary it does not look ahead: a text of exactly 160 septets (70
   * code units) reports 1 segment and 0 remaining, and one more unit re-splits the whole text into
   * parts of 153 (67), so the next value is 2 segments with 145 (63) remaining: 161 − 153 = 8
   * septets (71 − 67 = 4 units) now sit in the second part, one more if the first part's end falls
   * inside an escape or surrogate pair. It never goes negative, and it rises at that step.
   */
  remainingInSegment: number;
}

/**
 * Units per part. A part is 140 octets: 160 septets or 70 UTF-16 units. Multipart messages spend
 * 6 octets of every part on the concatenation header, leaving 134 octets: 153 septets or 67 units.
 */
export const SMS_LIMITS = {
  'GSM-7': { single: 160, multipart: 153 },
  'UCS-2': { single: 70, multipart: 67 },
} as const satisfies Record<SmsEncoding, { single: number; multipart: number }>;

const GSM_SINGLE = SMS_LIMITS['GSM-7'].single;
const GSM_PART = SMS_LIMITS['GSM-7'].multipart;
const UCS2_SINGLE = SMS_LIMITS['UCS-2'].single;
const UCS2_PART = SMS_LIMITS['UCS-2'].multipart;

/** GSM 03.38 default alphabet in table order, without the escape code 0x1B. */
const GSM_BASIC =
  '@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !"#¤%&\'()*+,-./0123456789:;<=>?' +
  '¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà';
/** GSM 03.38 extension table: each is sent as the escape septet followed by its own. */
const GSM_EXTENDED = '\f^{}\\[]~|€';

/**
 * Septets per UTF-16 code unit, indexed by char code: 0 = not in GSM-7, 1 = basic, 2 = extended.
 * Every GSM character is in the BMP, so one lookup per code unit decides everything.
 */
const SEPTETS = buildSeptetTable();

function buildSeptetTable(): Uint8Array {
  const table = new Uint8Array(0x10000);
  for (let i = 0; i < GSM_BASIC.length; i++) table[GSM_BASIC.charCodeAt(i)] = 1;
  for (let i = 0; i < GSM_EXTENDED.length; i++) table[GSM_EXTENDED.charCodeAt(i)] = 2;
  return table;
}

/** The encoding a text needs and how carriers split it, never splitting an escape or surrogate pair. */
export function segmentSms(text: string): SmsSegmentation {
  const length = text.length;
  let septets = 0;
  for (let i = 0; i < length; i++) {
    const weight = SEPTETS[text.charCodeAt(i)]!;
    if (weight === 0) return segmentUcs2(text);
    septets += weight;
  }
  if (septets <= GSM_SINGLE) return singlePart('GSM-7', septets, GSM_SINGLE);
  // Each escape adds one septet beyond the character count; without any, no character can straddle
  // a part boundary and the parts are plain arithmetic.
  if (septets === length) return evenParts('GSM-7', septets, GSM_PART);
  return packGsmParts(text, septets);
}

/** The 'Limit characters' rule: input that would need a second part is ignored. */
export function limitToSingleSegment(previous: string, next: string): string {
  return segmentSms(next).segments === 1 ? next : previous;
}

function segmentUcs2(text: string): SmsSegmentation {
  const units = text.length;
  if (units <= UCS2_SINGLE) return singlePart('UCS-2', units, UCS2_SINGLE);
  // Parts are cut at a code-unit offset, so only the unit at each cut needs looking at: the part
  // gives up its last unit when that is the first half of a surrogate pair.
  let segments = 1;
  let start = 0;
  while (units - start > UCS2_PART) {
    let end = start + UCS2_PART;
    if (isHighSurrogate(text.charCodeAt(end - 1)) && isLowSurrogate(text.charCodeAt(end))) end--;
    start = end;
    segments++;
  }
  return multipart('UCS-2', units, segments, units - start, UCS2_PART);
}

/** Greedy packing of whole characters, as the SMSC does: an escape pair moves to the next part whole. */
function packGsmParts(text: string, septets: number): SmsSegmentation {
  let segments = 1;
  let used = 0;
  for (let i = 0; i < text.length; i++) {
    const weight = SEPTETS[text.charCodeAt(i)]!;
    if (used + weight > GSM_PART) {
      segments++;
      used = weight;
    } else {
      used += weight;
    }
  }
  return multipart('GSM-7', septets, segments, used, GSM_PART);
}

function evenParts(encoding: SmsEncoding, units: number, perSegment: number): SmsSegmentation {
  const segments = Math.ceil(units / perSegment);
  return multipart(encoding, units, segments, units - (segments - 1) * perSegment, perSegment);
}

function singlePart(encoding: SmsEncoding, units: number, perSegment: number): SmsSegmentation {
  return { encoding, units, segments: 1, perSegment, remainingInSegment: perSegment - units };
}

function multipart(
  encoding: SmsEncoding,
  units: number,
  segments: number,
  lastPartUnits: number,
  perSegment: number,
): SmsSegmentation {
  return { encoding, units, segments, perSegment, remainingInSegment: perSegment - lastPartUnits };
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}
