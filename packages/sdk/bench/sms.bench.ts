// Throughput of segmentSms against sms-segments-calculator on 10,000 mixed messages, after checking
// that both give the same encoding and segment count for every one. Run alone with tsx to print.
import { pathToFileURL } from 'node:url';
import { SegmentedMessage } from 'sms-segments-calculator';
import { type SmsEncoding, segmentSms } from '../src/core/sms.js';

const MESSAGE_COUNT = 10_000;
const SEED = 0x5e9_3e27;
// The library needs about a millisecond a message, so a few rounds already take seconds.
const LIBRARY_ROUNDS = 3;
const OWN_ROUNDS = 25;
const TARGET_RATIO = 100;

const GSM = [
  ...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 .,!?:;\'"()-@£$_\n',
];
const GSM_EXTENDED = [...'^{}\\[~]|€'];
const SPANISH_GSM = [...'abcdefghijklmnopqrstuvwxyz ,.éñÑ¿?¡!üÜ'];
const SPANISH_UCS2 = [...'áíóúÁÍÓÚ'];
// Single code points only: the library keeps whole grapheme clusters together, which the carrier
// rule does not (see sms.test.ts), so flags, ZWJ sequences and combining accents are left out.
const EMOJI = ['😀', '🎉', '🚀', '👍', '💬', '📦', '🔥', '🙂'];
const UCS2_LETTERS = [...'жЖ中—‘’“”'];
const BOUNDARIES = [70, 71, 134, 135, 160, 161, 201, 202, 306, 307, 459, 460];

/** mulberry32: small, fast and seedable, so every run measures the same messages. */
function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Each kind draws one character; `rare` characters appear about once in `rareEvery`. */
interface MessageKind {
  common: string[];
  rare: string[];
  rareEvery: number;
}

const KINDS: MessageKind[] = [
  { common: GSM, rare: [], rareEvery: 1 },
  { common: GSM, rare: GSM_EXTENDED, rareEvery: 15 },
  { common: SPANISH_GSM, rare: [], rareEvery: 1 },
  { common: SPANISH_GSM, rare: SPANISH_UCS2, rareEvery: 25 },
  { common: GSM, rare: EMOJI, rareEvery: 40 },
  { common: UCS2_LETTERS, rare: EMOJI, rareEvery: 6 },
  {
    common: GSM,
    rare: [...GSM_EXTENDED, ...SPANISH_UCS2, ...EMOJI, ...UCS2_LETTERS],
    rareEvery: 10,
  },
];

function buildMixedMessages(count: number, seed: number): string[] {
  const random = seededRandom(seed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
  const messages: string[] = [];
  for (let m = 0; m < count; m++) {
    const kind = pick(KINDS);
    // A third land within a few units of a part boundary, where counting mistakes show.
    const target =
      random() < 0.33
        ? pick(BOUNDARIES) + Math.floor(random() * 5) - 2
        : 1 + Math.floor(random() * 400);
    let text = '';
    while (text.length < target) {
      const rare = kind.rare.length > 0 && random() * kind.rareEvery < 1;
      text += pick(rare ? kind.rare : kind.common);
    }
    messages.push(text);
  }
  return messages;
}

interface Counts {
  ucs2: Uint8Array;
  segments: Uint32Array;
}

const newCounts = (count: number): Counts => ({
  ucs2: new Uint8Array(count),
  segments: new Uint32Array(count),
});
const encodingFlag = (encoding: SmsEncoding | string): number => (encoding === 'UCS-2' ? 1 : 0);

function countOwn(messages: string[], into: Counts): void {
  for (let i = 0; i < messages.length; i++) {
    const result = segmentSms(messages[i]!);
    into.ucs2[i] = encodingFlag(result.encoding);
    into.segments[i] = result.segments;
  }
}

function countLibrary(messages: string[], into: Counts): void {
  for (let i = 0; i < messages.length; i++) {
    const result = new SegmentedMessage(messages[i]!);
    into.ucs2[i] = encodingFlag(result.encodingName);
    into.segments[i] = result.segmentsCount;
  }
}

/** Median of the rounds, so one round slowed by JIT warm-up or GC does not decide the figure. */
function messagesPerSecond(rounds: number, run: () => void): number {
  const times: number[] = [];
  for (let round = 0; round < rounds; round++) {
    const start = performance.now();
    run();
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  const medianMs = times[Math.floor(times.length / 2)]!;
  return MESSAGE_COUNT / (medianMs / 1000);
}

function firstDifference(messages: string[], ours: Counts, theirs: Counts): string | undefined {
  for (let i = 0; i < messages.length; i++) {
    if (ours.ucs2[i] !== theirs.ucs2[i] || ours.segments[i] !== theirs.segments[i]) {
      const label = (c: Counts) => `${c.ucs2[i] ? 'UCS-2' : 'GSM-7'}/${c.segments[i]}`;
      return `message ${i} ${JSON.stringify(messages[i])}: segmentSms ${label(ours)}, library ${label(theirs)}`;
    }
  }
  return undefined;
}

export async function benchSms(): Promise<string[]> {
  const messages = buildMixedMessages(MESSAGE_COUNT, SEED);
  const ours = newCounts(MESSAGE_COUNT);
  const theirs = newCounts(MESSAGE_COUNT);

  // Every timed round writes its counts, so the check below reads the last round's and the
  // library's slow pass is not run once more just to compare.
  const ownRate = messagesPerSecond(OWN_ROUNDS, () => countOwn(messages, ours));
  const libraryRate = messagesPerSecond(LIBRARY_ROUNDS, () => countLibrary(messages, theirs));
  const difference = firstDifference(messages, ours, theirs);
  if (difference !== undefined) {
    throw new Error(`segmentSms disagrees with the library on ${difference}`);
  }
  const ratio = ownRate / libraryRate;

  const ucs2 = ours.ucs2.reduce((sum, flag) => sum + flag, 0);
  const multipart = ours.segments.reduce((sum, segments) => sum + (segments > 1 ? 1 : 0), 0);
  const rate = (perSecond: number) => Math.round(perSecond).toLocaleString('en-US');
  return [
    `segmentSms: ${rate(ownRate)} msgs/s vs sms-segments-calculator: ${rate(libraryRate)} msgs/s → ${Math.round(ratio).toLocaleString('en-US')}× (target ≥ ${TARGET_RATIO}×${ratio >= TARGET_RATIO ? ', met' : ', NOT MET'})`,
    `  ${MESSAGE_COUNT.toLocaleString('en-US')} mixed messages (${MESSAGE_COUNT - ucs2} GSM-7, ${ucs2} UCS-2, ${multipart} multipart): encoding and segment count identical to the library for all`,
  ];
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  for (const line of await benchSms()) console.log(line);
}
