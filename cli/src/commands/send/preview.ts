// The dry run of `send` is the gateway's send preview, so the two cannot drift: the same role and
// recipient checks, quiet hours, opt-outs, landlines, template variables and the job the key
// already names. The CLI adds what only it knows: --only phones outside the audience.
import {
  formatIsoDateTime,
  type SkipReason as GatewaySkipReason,
  localTimeZone,
  MAX_RECIPIENTS,
  type SendPreview,
  type SendPreviewRequest,
} from '@blockcatch/sdk';
import type { Context } from '../../context.js';
import type { Translate } from '../../i18n.js';
import { printJson } from '../../output/json.js';
import { say } from '../../setup.js';
import { describeContent, type SendContent, type SendPlan } from './plan.js';

/** Why a number in the plan gets nothing: the gateway's reasons and the CLI's own. */
export type SkipReason = GatewaySkipReason | 'not-in-audience';

export interface PlanPreview {
  jobId: string | null;
  /** Would be queued (or scheduled) now. */
  queued: number;
  /** The job under this key already has them: not texted again. */
  earlier: number;
  skipped: { number: string; reason: SkipReason }[];
  waitingForQuietHours: number;
  quietHoursUntil: number | null;
  sendAt: number | null;
  segments: number;
  estimatedCost: number;
  preview: { to: string; text: string } | null;
}

/** Asks the gateway what sending these numbers under the plan's key would do, in parts. */
export async function previewSend(
  ctx: Context,
  plan: SendPlan,
  numbers: readonly string[],
): Promise<PlanPreview> {
  const total: PlanPreview = {
    jobId: null,
    queued: 0,
    earlier: 0,
    skipped: [],
    waitingForQuietHours: 0,
    quietHoursUntil: null,
    sendAt: null,
    segments: plan.content.channel === 'sms' ? plan.content.segments.segments : 1,
    estimatedCost: 0,
    preview: null,
  };
  for (let start = 0; start < numbers.length; start += MAX_RECIPIENTS) {
    const part = await ctx.client.sends.preview(
      previewRequest(plan, numbers.slice(start, start + MAX_RECIPIENTS)),
    );
    add(total, part);
  }
  total.skipped.push(
    ...plan.set.outsideAudience.map((number) => ({
      number,
      reason: 'not-in-audience' as const,
    })),
  );
  total.estimatedCost = Math.round(total.estimatedCost * 10_000) / 10_000;
  return total;
}

export function previewRequest(plan: SendPlan, numbers: readonly string[]): SendPreviewRequest {
  const base = {
    numbers: numbers.map((number) => ({ number })),
    key: plan.key,
    // A date-time without an offset means this computer's local time, or with --local-time
    // each recipient's.
    ...(plan.sendAt
      ? plan.localTime
        ? { sendAt: plan.sendAt, localTime: true }
        : { sendAt: new Date(plan.sendAt).toISOString() }
      : {}),
  };
  return plan.content.channel === 'sms'
    ? { ...base, channel: 'sms', message: plan.content.text }
    : { ...base, channel: 'whatsapp', msgTemplate: plan.content.template };
}

function add(total: PlanPreview, part: SendPreview): void {
  total.jobId ??= part.jobId ?? null;
  total.queued += part.queued;
  total.earlier += part.earlier ?? 0;
  total.skipped.push(...part.skipped);
  total.waitingForQuietHours += part.waitingForQuietHours;
  if (part.quietHoursUntil !== undefined) {
    total.quietHoursUntil = Math.max(total.quietHoursUntil ?? 0, part.quietHoursUntil);
  }
  total.sendAt = part.sendAt ?? total.sendAt;
  total.segments = part.segments ?? total.segments;
  total.estimatedCost += part.estimatedCost ?? 0;
  total.preview ??= part.preview ? { to: part.preview.to, text: part.preview.text } : null;
}

const REASON_KEYS: Record<SkipReason, string> = {
  'opted-out': 'cli.send.reasons.optedOut',
  invalid: 'cli.send.reasons.invalid',
  landline: 'cli.send.reasons.landline',
  'no-consent': 'cli.send.reasons.noConsent',
  'weekly-cap': 'cli.send.reasons.weeklyCap',
  'not-in-audience': 'cli.send.reasons.notInAudience',
};

const isoOrNull = (ts: number | null) =>
  ts === null ? null : formatIsoDateTime(ts, localTimeZone());

/** The dry run: what the gateway would do, as lines or as JSON. */
export function printDryRun(
  plan: SendPlan,
  previewed: PlanPreview,
  t: Translate,
  json: boolean,
): void {
  const numbers = plan.set.recipients.map((r) => r.phone);
  if (json) {
    printJson({
      dryRun: true,
      channel: plan.content.channel,
      audience: plan.audience,
      key: plan.key,
      jobId: previewed.jobId,
      message: describeContent(plan.content),
      recipients: { count: numbers.length, numbers },
      queued: previewed.queued,
      earlier: previewed.earlier,
      skipped: previewed.skipped,
      scheduledFor: isoOrNull(previewed.sendAt),
      waitingForQuietHours: {
        count: previewed.waitingForQuietHours,
        until: isoOrNull(previewed.quietHoursUntil),
      },
      segments: previewed.segments,
      estimatedCost: previewed.estimatedCost,
      preview: previewed.preview,
      skippedRows: plan.lists.flatMap((l) =>
        l.problems.map((p) => ({ flag: l.flag, file: l.file, ...p })),
      ),
    });
    return;
  }
  say(t('cli.send.dryRunHeader', { count: numbers.length }));
  say(t('cli.send.keyLine', { key: plan.key }));
  printContent(plan.content, t);
  for (const number of numbers) say(number);
  if (previewed.preview) {
    say(t('cli.send.previewLine', { to: previewed.preview.to, text: previewed.preview.text }));
  }
  printOutcome(previewed, t, 'dry');
  say(t('cli.send.needsYes'));
}

/** What a send did (or, dry, would do): earlier, queued or scheduled, skipped, waiting, cost. */
export function printOutcome(
  outcome: Omit<PlanPreview, 'segments' | 'preview'> & { added?: number },
  t: Translate,
  mood: 'dry' | 'done',
): void {
  const prefix = mood === 'dry' ? 'cli.send.would.' : 'cli.send.did.';
  if (outcome.earlier > 0) {
    say(
      t(`${prefix}earlier`, {
        count: outcome.earlier,
        added: outcome.added ?? 0,
        job: outcome.jobId ?? '-',
      }),
    );
  }
  say(
    outcome.sendAt === null
      ? t(`${prefix}queued`, { count: outcome.queued })
      : t(`${prefix}scheduled`, { count: outcome.queued, at: isoOrNull(outcome.sendAt) }),
  );
  for (const s of outcome.skipped) {
    say(t('cli.send.skipped', { number: s.number, reason: t(REASON_KEYS[s.reason]) }));
  }
  if (outcome.waitingForQuietHours > 0) {
    say(
      t('cli.send.waiting', {
        count: outcome.waitingForQuietHours,
        until: isoOrNull(outcome.quietHoursUntil) ?? '-',
      }),
    );
  }
  say(t('cli.send.cost', { cost: outcome.estimatedCost.toFixed(4) }));
}

export function printContent(content: SendContent, t: Translate): void {
  if (content.channel === 'sms') {
    say(t('cli.send.messageLine', { text: content.text }));
    say(
      t('cli.send.segments', {
        encoding: content.segments.encoding,
        segments: content.segments.segments,
        remaining: content.segments.remainingInSegment,
      }),
    );
  } else {
    say(
      t('cli.send.templateLine', {
        name: content.template.name,
        language: content.template.language,
      }),
    );
  }
}
