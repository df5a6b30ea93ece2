// The execution step of `send`: sends a plan's recipients in batches through sendInBatches, with a
// file journal in the profile folder so an interrupted run resumes with the same key; reports
// progress and the result as lines or JSON.
import { join } from 'node:path';
import { type BatchProgress, type BatchSendSummary, sendInBatches } from '@blockcatch/sdk';
import { createFileJournal } from '@blockcatch/sdk/node';
import type { Context } from '../context.js';
import { CommandFailure } from '../errors.js';
import type { Translate } from '../i18n.js';
import { printJson } from '../output/json.js';
import { throttledLines } from '../output/throttle.js';
import { contentOf, JOURNAL_FILE, type SendPlan } from './send-plan.js';
import { waitForDelivery } from './sends.js';
import { note, say } from './setup.js';

/** Sends what the journal has not acknowledged; Ctrl-C stops between batches. */
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
    journal: createFileJournal(join(ctx.profileDir(), JOURNAL_FILE)),
    onProgress,
    // A date-time without an offset means this computer's local time.
    ...(plan.sendAt ? { sendAt: new Date(plan.sendAt).toISOString() } : {}),
    ...(signal ? { signal } : {}),
  });
}

/**
 * Without a prompt (`--yes`): sends what the journal has not acknowledged, with a progress line
 * every few seconds (and one when the last batch is in), never one per batch.
 */
export async function sendWithoutPrompt(ctx: Context, plan: SendPlan, t: Translate, json: boolean) {
  const phones = plan.set.recipients.map((r) => r.phone);
  if (phones.length === 0) {
    if (json) printJson(emptyResult(plan));
    else note(t('cli.send.noRecipients'));
    return;
  }
  if (plan.alreadySent >= plan.batchesTotal) {
    if (json)
      printJson({
        ...emptyResult(plan),
        alreadySent: true,
        batchesTotal: plan.batchesTotal,
        batchesSkipped: plan.batchesTotal,
        recipientsTotal: phones.length,
      });
    else note(t('cli.send.alreadySent', { key: plan.key, count: phones.length }));
    return;
  }
  if (plan.alreadySent > 0) {
    note(t('cli.send.resuming', { sent: plan.alreadySent, total: plan.batchesTotal }));
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
      (p) => {
        if (p.batchesDone > plan.alreadySent || p.batchesDone === p.batchesTotal) {
          progress(
            () =>
              t('cli.send.progress', {
                batch: p.batchesDone,
                batches: p.batchesTotal,
                sent: p.recipientsDone,
                total: p.recipientsTotal,
              }),
            p.batchesDone === p.batchesTotal,
          );
        }
      },
      controller.signal,
    );
    printResult(summary, plan, t, json);
    if (plan.wait) await waitForDelivery(ctx, summary.jobIds, t);
  } catch (error) {
    if (controller.signal.aborted) {
      throw new CommandFailure(
        plan.keyGiven
          ? t('cli.errors.interruptedKey', { key: plan.key })
          : t('cli.errors.interrupted'),
      );
    }
    throw error;
  } finally {
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
  }
}

function emptyResult(plan: SendPlan) {
  return {
    dryRun: false,
    channel: plan.content.channel,
    audience: plan.audience,
    key: plan.key,
    alreadySent: false,
    batchesTotal: 0,
    batchesSent: 0,
    batchesSkipped: 0,
    recipientsTotal: 0,
    queued: 0,
    skipped: [],
    message: null,
  };
}

export function printResult(
  summary: BatchSendSummary,
  plan: SendPlan,
  t: Translate,
  json: boolean,
) {
  if (json) {
    printJson({
      dryRun: false,
      channel: plan.content.channel,
      audience: plan.audience,
      key: summary.key,
      alreadySent: false,
      replayed: isReplay(summary),
      batchesTotal: summary.batchesTotal,
      batchesSent: summary.batchesSent,
      batchesSkipped: summary.batchesSkipped,
      recipientsTotal: summary.recipientsTotal,
      queued: summary.queued,
      skipped: summary.skipped,
      message: summary.message,
    });
    return;
  }
  if (isReplay(summary)) {
    // The gateway answered every batch from an earlier send with the same key.
    say(t('cli.send.replayed'));
    return;
  }
  say(t('admin.sendSms.sent', { count: summary.recipientsTotal }));
  say(t('cli.send.summary', { sent: summary.queued, skipped: summary.skipped.length }));
  for (const s of summary.skipped) {
    say(
      t('cli.send.skipped', {
        number: s.number,
        reason: t(
          s.reason === 'opted-out'
            ? 'cli.send.reasons.optedOut'
            : s.reason === 'landline'
              ? 'cli.send.reasons.landline'
              : 'cli.send.reasons.invalid',
        ),
      }),
    );
  }
  if (summary.batchesSkipped > 0) {
    say(t('cli.send.resumed', { skipped: summary.batchesSkipped, total: summary.batchesTotal }));
  }
}

/** Every batch this run sent was one the gateway had already sent under its key. */
function isReplay(summary: BatchSendSummary): boolean {
  return summary.batchesSent > 0 && summary.batchesReplayed === summary.batchesSent;
}
