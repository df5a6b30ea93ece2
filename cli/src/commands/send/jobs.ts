// `blockcatch sends list [--key K]` and `blockcatch sends show ID [--csv] [--wait [--timeout 10m]]`:
// the gateway's send jobs and how each recipient stands (queued, sent, delivered, failed with the
// provider's reason). An ID may be the start of one job's id. `--wait` follows a job until nothing
// is queued or sending, saying what it waits for, and exits 1 if any recipient failed or the
// timeout passed.
import {
  FAILED_STATES,
  formatIsoDateTime,
  localTimeZone,
  readWholeReport,
  type SendJobReport,
  type SendJobSummary,
} from '@blockcatch/sdk';
import { z } from 'zod';
import type { Invocation } from '../../command.js';
import type { Context } from '../../context.js';
import { durationSchema, formatDuration } from '../../duration.js';
import { CommandFailure, UsageError } from '../../errors.js';
import { flag } from '../../flags.js';
import { t as translate } from '../../i18n.js';
import { writeCsv } from '../../output/csv.js';
import { printJson } from '../../output/json.js';
import { renderTable } from '../../output/table.js';
import { isoTime, withIsoTimes } from '../../output/time.js';
import { commandLine } from '../../self-command.js';
import { note, say, withContext } from '../../setup.js';
import { isInteractive } from '../../terminal.js';
import type { SendsListFlags, SendsShowFlags } from './flags.js';

type T = (key: string, values?: Record<string, unknown>) => string;

const POLL_MS = 1000;

/** Handed to the provider, whatever it reported since: what the progress bar counts as done. */
const handedOver = (job: SendJobSummary) => job.total - job.counts.queued - job.counts.sending;

const failedCount = (job: SendJobSummary) =>
  FAILED_STATES.reduce((sum, state) => sum + job.counts[state], 0);

function stateLine(job: SendJobSummary, t: T): string {
  const parts = Object.entries(job.counts)
    .filter(([, n]) => n > 0)
    .map(([state, n]) => `${state} ${n}`);
  return t('cli.sends.states', { states: parts.join(', ') || '-' });
}

const keySchema = z.string().regex(/^[\w.:@-]{1,200}$/);
/** `--timeout`: one second to a week. */
const timeoutSchema = durationSchema(1000, 7 * 86_400_000);

export async function runSendsList(invocation: Invocation<SendsListFlags>): Promise<void> {
  const { options } = invocation;
  const limit = flag(
    '--limit',
    z.coerce.number().int().min(1).max(100),
    options.limit ?? '20',
    translate('cli.errors.wholeNumberFix', { min: 1, max: 100 }),
  );
  const key =
    options.key === undefined
      ? undefined
      : flag('--key', keySchema, options.key, translate('cli.errors.keyFix'));
  await withContext(invocation, async (ctx, { t }) => {
    const jobs = await ctx.client.sends.list({ limit, ...(key === undefined ? {} : { key }) });
    if (options.json) {
      printJson({ count: jobs.length, items: withIsoTimes(jobs) });
      return;
    }
    say(
      renderTable(
        [
          t('cli.sends.id'),
          t('cli.sends.created'),
          t('cli.sends.channel'),
          t('cli.sends.recipients'),
          t('cli.sends.delivered'),
          t('cli.sends.failed'),
          t('cli.sends.state'),
        ],
        jobs.map((job) => [
          job.jobId,
          isoTime(job.createdAt),
          job.channel,
          String(job.total),
          String(job.counts.delivered),
          String(failedCount(job)),
          jobState(job, t),
        ]),
      ).text,
    );
  });
}

function jobState(job: SendJobSummary, t: T): string {
  if (job.cancelledAt !== null) return t('cli.sends.cancelled');
  if (job.sendAt !== null && job.sendAt > Date.now() && handedOver(job) === 0) {
    return t('cli.sends.scheduled', { at: isoTime(job.sendAt) });
  }
  return job.done ? t('cli.sends.done') : t('cli.sends.queued');
}

export async function runSendsShow(
  invocation: Invocation<SendsShowFlags, [id: string]>,
): Promise<void> {
  const { options, args } = invocation;
  const [typed] = args;
  const timeoutMs =
    options.timeout === undefined
      ? null
      : flag('--timeout', timeoutSchema, options.timeout, translate('cli.errors.timeoutFix'));
  if (timeoutMs !== null && !options.wait) {
    throw new UsageError(translate('cli.errors.timeoutNeedsWait'));
  }
  await withContext(invocation, async (ctx, { t }) => {
    // The full id, also when the start of one was typed.
    const id = (await ctx.client.sends.show(typed, { limit: 0 })).jobId;
    if (options.wait) {
      const followed = await follow(ctx, id, t, timeoutMs);
      if (!followed.done) throw timedOut(followed, timeoutMs, t);
    }
    const final = await readWholeReport(ctx.client.sends, id);
    await print(final, options, t);
    if (options.wait && failedCount(final) > 0) {
      throw new CommandFailure(t('cli.sends.someFailed', { failed: failedCount(final) }));
    }
  });
}

/**
 * Follows the jobs a send started until every recipient has an outcome; exit 1 (CommandFailure)
 * if any did not get the message.
 */
export async function waitForDelivery(
  ctx: Context,
  jobIds: string[],
  t: T,
  timeoutMs: number | null = null,
): Promise<void> {
  let failed = 0;
  for (const id of jobIds) {
    const job = await follow(ctx, id, t, timeoutMs);
    if (!job.done) throw timedOut(job, timeoutMs, t);
    failed += failedCount(job);
  }
  if (failed > 0) throw new CommandFailure(t('cli.sends.someFailed', { failed }));
}

function timedOut(job: SendJobReport, timeoutMs: number | null, t: T): CommandFailure {
  return new CommandFailure(
    t('cli.sends.timedOut', {
      timeout: formatDuration(timeoutMs ?? 0),
      reason: job.waiting ? waitLine(job.waiting, t) : '',
      command: commandLine(`sends show ${job.jobId} --wait`),
    }),
  );
}

/** What a job waits for, in words: "scheduled for …", "quiet hours until 08:00 in America/Chicago". */
export function waitLine(waiting: NonNullable<SendJobReport['waiting']>, t: T): string {
  const at = formatIsoDateTime(waiting.until, localTimeZone());
  const there = formatIsoDateTime(waiting.until, waiting.timeZone).slice(11, 16);
  return t(`cli.sends.wait.${waiting.reason}`, { at, time: there, zone: waiting.timeZone });
}

/**
 * Polls the job until it is done or `timeoutMs` passes, drawing a progress bar on a terminal
 * (plain lines elsewhere) with what it waits for.
 */
async function follow(
  ctx: Context,
  id: string,
  t: T,
  timeoutMs: number | null,
): Promise<SendJobReport> {
  const tty = isInteractive() && process.stderr.isTTY;
  const deadline = timeoutMs === null ? Number.POSITIVE_INFINITY : Date.now() + timeoutMs;
  let lastLine = '';
  for (;;) {
    const job = await ctx.client.sends.show(id, { limit: 0 });
    const waiting = job.waiting ? ` · ${waitLine(job.waiting, t)}` : '';
    const line = `${progressBar(handedOver(job), job.total)} ${stateLine(job, t)}${waiting}`;
    if (tty) process.stderr.write(`\r${line}\u001b[K`);
    else if (line !== lastLine) note(line);
    lastLine = line;
    if (job.done || Date.now() >= deadline) {
      if (tty) process.stderr.write('\n');
      return job;
    }
    await new Promise((resolve) =>
      setTimeout(resolve, Math.max(0, Math.min(POLL_MS, deadline - Date.now()))),
    );
  }
}

export function progressBar(done: number, total: number, width = 24): string {
  const share = total === 0 ? 1 : Math.min(1, done / total);
  const filled = Math.round(share * width);
  return `[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${done}/${total}`;
}

async function print(report: SendJobReport, options: SendsShowFlags, t: T): Promise<void> {
  if (options.json) {
    printJson(withIsoTimes(report));
    return;
  }
  if (options.csv) {
    await writeCsv(
      report.recipients,
      ['to', 'status', 'errorCode', 'error', 'segments', 'sentAt', 'statusAt'],
      (r) => ({
        to: r.to,
        status: r.status,
        errorCode: r.errorCode === null ? '' : String(r.errorCode),
        error: r.error ?? '',
        segments: String(r.segments),
        sentAt: r.sentAt === null ? '' : isoTime(r.sentAt),
        statusAt: r.statusAt === null ? '' : isoTime(r.statusAt),
      }),
    );
    return;
  }
  say(t('cli.sends.summary', { id: report.jobId, channel: report.channel, total: report.total }));
  say(stateLine(report, t));
  say(
    t('cli.sends.cost', {
      segments: report.segments,
      cost: report.estimatedCost.toFixed(4),
    }),
  );
  say(
    renderTable(
      [t('cli.sends.to'), t('cli.sends.state'), t('cli.sends.error')],
      report.recipients.map((r) => [
        r.to,
        r.status,
        r.errorCode === null ? (r.error ?? '') : `${r.errorCode} ${r.error ?? ''}`,
      ]),
    ).text,
  );
}

export async function runSendsCancel(invocation: Invocation<object, [id: string]>): Promise<void> {
  const [typed] = invocation.args;
  await withContext(invocation, async (ctx, { t }) => {
    const id = (await ctx.client.sends.show(typed, { limit: 0 })).jobId;
    const report = await ctx.client.sends.cancel(id);
    say(t('cli.sends.cancelledLine', { id: report.jobId, count: report.counts.cancelled }));
  });
}
