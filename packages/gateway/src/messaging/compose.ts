// What a send will do before anything is queued: which numbers can be sent to (the rest are
// skipped with a reason, never refusing the others), the template's language and variables filled
// for each recipient, the message the first recipient will read, and how many wait for quiet hours.
import {
  bindTemplate,
  type MsgTemplate,
  normalizePhone,
  offsetAt,
  pickLanguage,
  quietHoursRelease,
  REGION_TIME_ZONES,
  segmentSms,
  type TemplateRecipient,
  unboundVariables,
  type WhatsappTemplate,
  withSampleLinks,
} from '@blockcatch/sdk';
import { ApiError, invalid, quote } from '../http/errors.js';
import type { Queryable } from '../storage/db.js';
import type { NewRecipients, RecipientContent } from '../storage/send-jobs.js';
import { findTemplateLanguages } from '../storage/templates.js';

/** Request numbers: the valid ones normalised and deduplicated, and the ones that are not numbers. */
export interface SortedNumbers {
  valid: string[];
  invalid: string[];
}

/** One bad number never blocks the others: it is kept apart and reported, not refused. */
export function sortNumbers(numbers: readonly { number: string }[]): SortedNumbers {
  const valid = new Set<string>();
  const invalid = new Set<string>();
  for (const { number } of numbers) {
    const phone = normalizePhone(number);
    if (phone === null) invalid.add(number.slice(0, 40));
    else valid.add(phone);
  }
  return { valid: [...valid], invalid: [...invalid] };
}

export interface ComposedSend {
  recipients: NewRecipients;
  /** The job's text: the message, or the template rendered for the first recipient. */
  body: string;
  /** The template as stored with the job (with the language chosen), or null for SMS. */
  template: (WhatsappTemplate & { values?: Record<string, string> }) | null;
  preview: { to: string; text: string; variables: Record<string, string> } | null;
}

const MAX_SCHEDULE_AHEAD_MS = 366 * 86_400_000;

/**
 * A scheduled start as epoch ms: an ISO date-time with an offset, or without one in the product's
 * zone. Refused in the past (beyond a minute's slack) or more than a year ahead.
 */
export function parseSendAt(value: string | undefined, now: number, zone: string): number | null {
  const at = sendAtInstant(value, zone);
  if (at === null) return null;
  if (at < now - 60_000) {
    throw invalid(
      'sendAt',
      `${new Date(at).toISOString()} is in the past; give a future date-time such as 2026-12-01T09:00.`,
    );
  }
  if (at > now + MAX_SCHEDULE_AHEAD_MS) throw invalid('sendAt', 'schedule at most a year ahead.');
  return at <= now ? null : at;
}

/**
 * The instant a `sendAt` names, without the bounds a new send has (a job's content keeps it).
 * `local`: the time is read in each recipient's zone, so it may not carry an offset.
 */
export function sendAtInstant(
  value: string | undefined,
  zone: string,
  options: { local?: boolean } = {},
): number | null {
  if (value === undefined) return null;
  const hasOffset = /(Z|[+-]\d{2}:?\d{2})$/i.test(value);
  if (hasOffset && options.local) {
    throw invalid(
      'sendAt',
      `${quote(value)} has a time zone offset; with localTime give the time alone, e.g. 2026-12-01T10:00, and each recipient gets it at that time where they are.`,
    );
  }
  let at = Date.parse(hasOffset ? value : `${value}Z`);
  if (!hasOffset) at -= offsetAt(at - offsetAt(at, zone), zone);
  if (Number.isNaN(at)) throw invalid('sendAt', `${quote(value)} is not a date-time.`);
  return at;
}

/**
 * Each recipient's due time for a send at the wall-clock time `value` in their own zone (their
 * region's, else the product's), and the first of them. Refused when that time has already passed
 * in some recipient's zone, naming it, or is more than a year ahead.
 */
export async function localDues(
  db: Queryable,
  numbers: string[],
  value: string,
  productTimeZone: string,
  now: number,
): Promise<{ dues: number[]; first: number }> {
  const zones = await recipientZones(db, numbers, productTimeZone);
  const byZone = new Map<string, number>();
  for (const zone of new Set([...zones, ...(zones.length === 0 ? [productTimeZone] : [])])) {
    const at = sendAtInstant(value, zone)!;
    if (at < now - 60_000) {
      throw invalid(
        'sendAt',
        `${value} has already passed in ${zone}, where some recipients are; give a time still ahead everywhere, e.g. tomorrow's date.`,
      );
    }
    if (at > now + MAX_SCHEDULE_AHEAD_MS) throw invalid('sendAt', 'schedule at most a year ahead.');
    byZone.set(zone, at);
  }
  const dues = zones.map((zone) => byZone.get(zone)!);
  return { dues, first: Math.min(...byZone.values()) };
}

/** Each number's zone: its user's region's, else the product's (one query for them all). */
async function recipientZones(
  db: Queryable,
  numbers: string[],
  productTimeZone: string,
): Promise<string[]> {
  if (numbers.length === 0) return [];
  const rows = await db.query<{ region: string | null }>(
    `SELECT (SELECT u.human_region FROM users u WHERE u.phone_number = t.p
             ORDER BY u.human_region NULLS LAST LIMIT 1) AS region
     FROM unnest($1::text[]) WITH ORDINALITY AS t(p, seq) ORDER BY t.seq`,
    [numbers],
  );
  return rows.map((r) => (r.region && REGION_TIME_ZONES[r.region]) || productTimeZone);
}

/**
 * An SMS to every valid number. With `linkBase` (a marketing send) its addresses go as short links
 * under it: segments and the preview are measured on the text as recipients will read it, with a
 * stand-in code of the real codes' length.
 */
export function composeSms(
  sorted: SortedNumbers,
  message: string,
  linkBase?: string,
): ComposedSend {
  const read = linkBase === undefined ? message : withSampleLinks(message, linkBase);
  const { segments } = segmentSms(read);
  const to = [...sorted.valid, ...sorted.invalid];
  return {
    recipients: {
      to,
      skip: to.map((_, i) => (i < sorted.valid.length ? null : 'skipped-invalid')),
      segments: to.map(() => segments),
    },
    body: message,
    template: null,
    preview: sorted.valid[0] ? { to: sorted.valid[0], text: read, variables: {} } : null,
  };
}

interface RecipientInfo extends TemplateRecipient {
  language: string;
  region: string | null;
}

async function recipientInfo(
  db: Queryable,
  numbers: string[],
): Promise<Map<string, RecipientInfo>> {
  if (numbers.length === 0) return new Map();
  const rows = await db.query<{
    phone_number: string;
    name: string;
    expiration_ts: number | null;
    referral_code: string | null;
    preferred_language: string;
    human_region: string | null;
  }>(
    `SELECT DISTINCT ON (phone_number) phone_number, name, expiration_ts, referral_code,
            preferred_language, human_region
     FROM users WHERE phone_number = ANY($1::text[]) ORDER BY phone_number, product`,
    [numbers],
  );
  return new Map(
    rows.map((r) => [
      r.phone_number,
      {
        phoneNumber: r.phone_number,
        name: r.name,
        expirationTs: r.expiration_ts === null ? null : Number(r.expiration_ts),
        referralCode: r.referral_code,
        language: r.preferred_language,
        region: r.human_region,
      },
    ]),
  );
}

/**
 * Fills a WhatsApp template for every recipient. The language asked for picks the variant (`es`
 * finds `es_MX`); a recipient whose own language the template also has gets that variant. Refused,
 * before anything is queued, when the language does not exist or a variable is bound to nothing.
 */
export async function composeWhatsapp(
  db: Queryable,
  sorted: SortedNumbers,
  msgTemplate: MsgTemplate,
  productTimeZone: string,
): Promise<ComposedSend> {
  const variants = await findTemplateLanguages(db, msgTemplate.name);
  if (variants.length === 0) {
    throw invalid(
      'msgTemplate.name',
      `no WhatsApp template named ${quote(msgTemplate.name)}; GET /api/flex/v1/admin/sendWhatsapp lists them.`,
    );
  }
  const languages = variants.map((v) => v.language);
  const chosen = pickLanguage(msgTemplate.language, languages);
  if (!chosen) {
    throw new ApiError(
      400,
      'template_language',
      `msgTemplate.language: template ${quote(msgTemplate.name)} has no ${quote(msgTemplate.language)} version; it exists in ${languages.join(', ')}.`,
      'msgTemplate.language',
    );
  }
  const values = msgTemplate.values ?? {};
  for (const variant of variants) {
    const unbound = unboundVariables(variant.components, variant.variables ?? [], values);
    if (unbound.length > 0) {
      throw new ApiError(
        400,
        'unbound_variable',
        `msgTemplate.values.${unbound[0]}: template ${quote(variant.name)} (${variant.language}) has variable {{${unbound[0]}}} bound to no recipient field and no value was given; send it in msgTemplate.values.`,
        `msgTemplate.values.${unbound[0]}`,
      );
    }
  }
  const byLanguage = new Map(variants.map((v) => [v.language, v]));
  const main = byLanguage.get(chosen)!;
  refuseUnapproved(main);
  const info = await recipientInfo(db, sorted.valid);
  const body: (string | null)[] = [];
  const content: (RecipientContent | null)[] = [];
  for (const phone of sorted.valid) {
    const person = info.get(phone);
    const own = person ? pickLanguage(person.language, languages) : null;
    // A recipient's own language only when WhatsApp approved that version too.
    const mine = own ? byLanguage.get(own) : undefined;
    const variant = mine && isApproved(mine) ? mine : main;
    const zone = (person?.region && REGION_TIME_ZONES[person.region]) || productTimeZone;
    const bound = bindTemplate(variant, person ?? { phoneNumber: phone }, values, zone);
    body.push(bound.text);
    content.push({
      ...(variant.contentSid ? { contentSid: variant.contentSid } : {}),
      variables: bound.variables,
    });
  }
  for (const _ of sorted.invalid) {
    body.push(null);
    content.push(null);
  }
  const to = [...sorted.valid, ...sorted.invalid];
  return {
    recipients: {
      to,
      skip: to.map((_, i) => (i < sorted.valid.length ? null : 'skipped-invalid')),
      body,
      content,
    },
    body: body[0] ?? main.components.map((c) => c.text).join('\n\n'),
    template: { ...main, values },
    preview: sorted.valid[0]
      ? { to: sorted.valid[0], text: body[0]!, variables: content[0]!.variables }
      : null,
  };
}

function isApproved(template: WhatsappTemplate): boolean {
  return Boolean(template.contentSid) && template.approvalStatus === 'approved';
}

/**
 * WhatsApp refuses free text outside the 24-hour window (Twilio 63016): a template goes only as
 * its approved content id, so one without is refused before anything is queued.
 */
function refuseUnapproved(template: WhatsappTemplate): void {
  if (isApproved(template)) return;
  const why = template.contentSid
    ? `WhatsApp has not approved its content ${template.contentSid} (status ${template.approvalStatus ?? 'unknown'}${template.rejectionReason ? `: ${template.rejectionReason}` : ''})`
    : 'it has no Twilio Content SID';
  throw new ApiError(
    400,
    'template_not_approved',
    `msgTemplate.name: template ${quote(template.name)} (${template.language}) cannot be sent: ${why}. Pick an approved template, or sync its status (POST /api/flex/v1/admin/templates/sync) once WhatsApp approves it.`,
    'msgTemplate.name',
  );
}

/**
 * How many of these recipients are in quiet hours at `at` and would wait for 8 am: one grouped
 * query over their regions; numbers with no user row take the product's zone.
 */
export async function countWaitingForQuietHours(
  db: Queryable,
  numbers: string[],
  at: number,
  productTimeZone: string,
): Promise<number> {
  return (await quietHoursWait(db, numbers, at, productTimeZone)).count;
}

/** How many of these recipients wait for quiet hours at `at`, and when the last is released. */
export async function quietHoursWait(
  db: Queryable,
  numbers: string[],
  at: number,
  productTimeZone: string,
): Promise<{ count: number; until: number | null }> {
  if (numbers.length === 0) return { count: 0, until: null };
  const rows = await db.query<{ human_region: string | null; n: number }>(
    `SELECT region AS human_region, count(*)::int AS n FROM (
       SELECT (SELECT u.human_region FROM users u WHERE u.phone_number = t.p
               ORDER BY u.human_region NULLS LAST LIMIT 1) AS region
       FROM unnest($1::text[]) AS t(p)
     ) r GROUP BY region`,
    [numbers],
  );
  let count = 0;
  let until: number | null = null;
  for (const row of rows) {
    const zone = (row.human_region && REGION_TIME_ZONES[row.human_region]) || productTimeZone;
    const release = quietHoursRelease(at, zone);
    if (release > at) {
      count += row.n;
      until = Math.max(until ?? release, release);
    }
  }
  return { count, until };
}
