// The execution step of `send`: sends a plan's recipients as one job, in parts under the job's key
// (sendInBatches); the gateway keeps each number once per job, so a re-run after a kill, with
// another batch size or a grown audience adds only who is missing. Reports what really happened,
// as lines or JSON: queued, scheduled, waiting for quiet hours, sent earlier, the job and its cost.
import {
  type BatchProgress,
  type BatchSendSummary,
  formatIsoDateTime,
  localTimeZone,
  sendInBatches,
} from '@blockcatch/sdk';
import type { Context } from '../../context.js';
import { Interrupted } from '../../errors.js';
import type { Translate } from '../../i18n.js';
import { printJson } from '../../output/json.js';
import { throttledLines } from '../../output/throttle.js';
import { note, say } from '../../setup.js';
import { waitForDelivery } from './jobs.js';
import { contentOf, type SendPlan } from './plan.js';
import { printOutcome } from './preview.js';

export async function executeSend(
  ctx: Context,
  plan: SendPlan,
  phones: string[],
  onProgress: (progress: BatchProgress) => void,
  signal?: AbortSignal,
): Promise<BatchSendSummary> {
  return sendInBatches(ctx.client, phones, contentOf(plan.content), {
    key: plan.key,
    batchSize: plan.batchSize,
    onProgress,
    // A date-time without an offset means this computer's local time, or with --local-time
    // each recipient's.
    ...(plan.sendAt
      ? plan.localTime
        ? { sendAt: plan.sendAt, localTime: true }
        : { sendAt: new Date(plan.sendAt).toISOString() }
      : {}),
    ...(signal ? { signal } : {}),
  });
}

/** Without a prompt (`--yes`): a progress line every few seconds, then the result. */
export async function sendWithoutPrompt(ctx: Context, plan: SendPlan, t: Translate, json: boolean) {
  const phones = plan.set.recipients.map((r) => r.phone);
  if (phones.length === 0) {
    if (json) printJson(resultJson(plan, null));
    else note(t('cli.send.noRecipients'));
    return;
  }
  const progress = throttledLines(note);
  const controller = new AbortController();
  const stop = () => controller.abort();
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  try {
    const summary = await executeSend(
      ctx,
      plan,
      phones,
      (p) =>
        progress(
          () => t('cli.send.progress', { sent: p.recipientsDone, total: p.recipientsTotal }),
          p.recipientsDone === p.recipientsTotal,
        ),
      controller.signal,
    );
    printResult(summary, plan, t, json);
    if (plan.wait && summary.jobId) {
      await waitForDelivery(ctx, [summary.jobId], t, plan.waitTimeoutMs);
    }
  } catch (error) {
    if (controller.signal.aborted) throw interrupted(plan, t);
    throw error;
  } finally {
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
  }
}

/** Ctrl-C: nobody is lost, because a re-run under the same key adds only who is missing. */
export function interrupted(plan: SendPlan, t: Translate): Interrupted {
  return new Interrupted(
    plan.keyGiven
      ? t('cli.errors.interruptedKey', { key: plan.key })
      : t('cli.errors.interrupted', { key: plan.key }),
  );
}

function resultJson(plan: SendPlan, summary: BatchSendSummary | null) {
  const zone = localTimeZone();
  return {
    dryRun: false,
    channel: plan.content.channel,
    audience: plan.audience,
    key: plan.key,
    jobId: summary?.jobId ?? null,
    replayed: summary?.replayed ?? false,
    recipientsTotal: summary?.recipientsTotal ?? 0,
    queued: summary?.queued ?? 0,
    added: summary?.added ?? 0,
    earlier: summary?.earlier ?? 0,
    skipped: [
      ...(summary?.skipped ?? []),
      ...plan.set.outsideAudience.map((number) => ({ number, reason: 'not-in-audience' })),
    ],
    scheduledFor: summary?.sendAt ? formatIsoDateTime(summary.sendAt, zone) : null,
    waitingForQuietHours: {
      count: summary?.waitingForQuietHours ?? 0,
      until: summary?.quietHoursUntil ? formatIsoDateTime(summary.quietHoursUntil, zone) : null,
    },
    estimatedCost: summary?.estimatedCost ?? 0,
  };
}

export function printResult(
  summary: BatchSendSummary,
  plan: SendPlan,
  t: Translate,
  json: boolean,
) {
  if (json) {
    printJson(resultJson(plan, summary));
    return;
  }
  say(resultLine(summary, t));
  if (!summary.replayed) {
    printOutcome(
      {
        ...summary,
        skipped: [
          ...summary.skipped,
          ...plan.set.outsideAudience.map((number) => ({
            number,
            reason: 'not-in-audience' as const,
          })),
        ],
      },
      t,
      'done',
    );
  }
}

/** The first line of a result: the job, and whether anything was sent now. */
export function resultLine(summary: BatchSendSummary, t: Translate): string {
  const job = summary.jobId ?? '-';
  return summary.replayed
    ? t('cli.send.replayed', { job, key: summary.key, count: summary.earlier })
    : t('cli.send.jobLine', { job, key: summary.key });
}
