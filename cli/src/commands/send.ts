// `blockcatch send sms|whatsapp --audience …`: decides the plan (send-plan.ts), then either hands it
// to the interactive review (a terminal) or, without one, prints a dry run or sends with --yes.
// Sends go through sendInBatches with a file journal in the profile folder, so an interrupted run
// resumes with the same key.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  type BatchProgress,
  type BatchSendSummary,
  channelSchema,
  deriveSendKey,
  formatIsoDay,
  localTimeZone,
  sendInBatches,
} from '@blockcatch/sdk';
import { createFileJournal } from '@blockcatch/sdk/node';
import { z } from 'zod';
import type { Context } from '../context.js';
import { CommandFailure, UsageError } from '../errors.js';
import {
  audienceFilters,
  flag,
  inviteeFilters,
  type RawAudienceFlags,
  type RawInviteeFlags,
} from '../flags.js';
import type { Translate } from '../i18n.js';
import { printJson } from '../output/json.js';
import type { Invocation } from '../program.js';
import { isInteractive } from '../terminal.js';
import { type AudienceQuery, loadAudience } from './audience.js';
import { type PhoneFile, readPhoneFile } from './phone-lists.js';
import {
  contentOf,
  pickRecipients,
  pickTemplate,
  type RecipientSet,
  type SendContent,
  smsContent,
} from './send-plan.js';
import { note, say, withContext } from './setup.js';

export const JOURNAL_FILE = 'send-journal.jsonl';

const audienceSchema = z.enum(['flex', 'spark', 'invitees']);
const keySchema = z.string().regex(/^[\w.:@-]{1,150}$/);

export interface SendPlan {
  audience: 'flex' | 'spark' | 'invitees';
  content: SendContent;
  set: RecipientSet;
  key: string;
  keyGiven: boolean;
  batchSize: number;
  lists: PhoneFile[];
  /** Batches an earlier run with this key already sent. */
  alreadySent: number;
  batchesTotal: number;
}

export async function runSend(invocation: Invocation): Promise<void> {
  const o = invocation.options;
  const channel = flag('<channel>', channelSchema, invocation.args[0], 'use sms or whatsapp.');
  const audience = flag('--audience', audienceSchema, o.audience, 'use flex, spark or invitees.');
  const batchSize = flag(
    '--batch-size',
    z.coerce.number().int().min(1).max(1000),
    o.batchSize ?? '1000',
    'give a whole number from 1 to 1000.',
  );
  const givenKey =
    o.key === undefined
      ? undefined
      : flag(
          '--key',
          keySchema,
          o.key,
          'use 1 to 150 letters, digits or . _ : @ -, e.g. --key renewals-2026-03.',
        );
  const query = audienceQuery(audience, o);
  const sources = ['message', 'messageFile', 'template'].filter((k) => o[k] !== undefined);
  if (sources.length > 1) {
    throw new UsageError('--message, --message-file and --template: give exactly one.');
  }
  if (channel === 'sms' && o.template !== undefined) {
    throw new UsageError(
      '--template: templates are for WhatsApp; use send whatsapp, or --message for an SMS.',
    );
  }
  if (channel === 'whatsapp' && o.template === undefined) {
    throw new UsageError('send whatsapp needs --template NAME (see blockcatch templates list).');
  }
  if (channel === 'sms' && sources.length === 0) {
    throw new UsageError('send sms needs the text: --message TEXT or --message-file FILE.');
  }
  let content: SendContent | undefined;
  if (channel === 'sms') {
    const text =
      o.message !== undefined ? String(o.message) : readMessageFile(String(o.messageFile));
    content = smsContent(text, { audience, allowMultipart: o.allowMultipart === true });
  }
  // Both lists are read before anything is fetched or sent: a broken file stops here.
  const lists: PhoneFile[] = [];
  if (o.only !== undefined) lists.push(readPhoneFile('--only', String(o.only)));
  if (o.exclude !== undefined) lists.push(readPhoneFile('--exclude', String(o.exclude)));
  const dryRun = o.dryRun === true;
  const json = o.json === true;
  const interactive = !dryRun && !json && o.yes !== true && isInteractive();
  if (!dryRun && !interactive && o.yes !== true) {
    // Checked before the network: a cron line without --yes fails fast and the same way every time.
    throw new UsageError(
      'Not a terminal, so there is no prompt: pass --yes to send (or --dry-run to see what would be sent).',
    );
  }

  await withContext(invocation, async (ctx, { t }) => {
    if (!content) {
      content = pickTemplate(
        await ctx.client.templates(),
        String(o.template),
        o.templateLanguage === undefined ? undefined : String(o.templateLanguage),
      );
    }
    const rows = await loadAudience(ctx, query);
    const set = pickRecipients(
      rows,
      lists.find((l) => l.flag === '--only'),
      lists.find((l) => l.flag === '--exclude'),
    );
    const key =
      givenKey ??
      (await deriveSendKey({
        channel,
        content: contentOf(content),
        recipients: set.recipients.map((r) => r.phone),
        day: formatIsoDay(Date.now(), localTimeZone()),
      }));
    const journal = createFileJournal(join(ctx.profileDir(), JOURNAL_FILE));
    const batchesTotal = Math.ceil(set.recipients.length / batchSize);
    const acknowledged = await journal.load(key);
    const plan: SendPlan = {
      audience,
      content,
      set,
      key,
      keyGiven: givenKey !== undefined,
      batchSize,
      lists,
      alreadySent: [...acknowledged].filter((i) => i < batchesTotal).length,
      batchesTotal,
    };
    reportListProblems(plan, t);

    if (dryRun) {
      printDryRun(plan, t, json);
      return;
    }
    if (interactive) {
      const { runInteractiveSend } = await import('./send-interactive.js');
      await runInteractiveSend(ctx, plan, t, query);
      return;
    }
    await sendNonInteractive(ctx, plan, t, json);
  });
}

function audienceQuery(audience: SendPlan['audience'], o: Record<string, unknown>): AudienceQuery {
  const search = typeof o.search === 'string' ? { search: o.search } : {};
  if (audience === 'invitees') {
    for (const name of [
      'createdFrom',
      'createdTo',
      'expiresFrom',
      'expiresTo',
      'goodStanding',
      'region',
      'referral',
    ]) {
      if (o[name] !== undefined) {
        throw new UsageError(
          `--${name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}: not a filter of the invitees audience; use --invited-from, --invited-to, --registered, --proxy-installed or --setup-complete.`,
        );
      }
    }
    return { kind: 'invitees', filters: inviteeFilters(o as RawInviteeFlags), ...search };
  }
  for (const name of ['invitedFrom', 'invitedTo', 'registered']) {
    if (o[name] !== undefined) {
      throw new UsageError(
        `--${name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}: only for --audience invitees.`,
      );
    }
  }
  return {
    kind: 'users',
    product: audience,
    filters: audienceFilters(o as RawAudienceFlags, audience),
    ...search,
  };
}

function readMessageFile(file: string): string {
  try {
    return readFileSync(file, 'utf8')
      .replace(/^\uFEFF/, '')
      .replace(/\r?\n$/, '');
  } catch (error) {
    throw new UsageError(
      `--message-file: cannot read ${JSON.stringify(file)} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}); give a UTF-8 text file.`,
    );
  }
}

function reportListProblems(plan: SendPlan, t: Translate): void {
  for (const list of plan.lists) {
    for (const p of list.problems) {
      note(
        t('cli.send.badRow', { flag: list.flag, file: list.file, line: p.line, value: p.value }),
      );
    }
  }
  for (const row of plan.set.unusable) {
    note(t('cli.send.unusable', { name: row.name, value: row.phoneNumber }));
  }
}

export function describeContent(content: SendContent) {
  if (content.channel === 'sms') {
    const s = content.segments;
    return {
      text: content.text,
      encoding: s.encoding,
      segments: s.segments,
      units: s.units,
      remaining: s.remainingInSegment,
    };
  }
  return { template: content.template };
}

function printDryRun(plan: SendPlan, t: Translate, json: boolean): void {
  const numbers = plan.set.recipients.map((r) => r.phone);
  if (json) {
    printJson({
      dryRun: true,
      channel: plan.content.channel,
      audience: plan.audience,
      key: plan.key,
      message: describeContent(plan.content),
      recipients: { count: numbers.length, numbers },
      alreadySent: { batches: plan.alreadySent, of: plan.batchesTotal },
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
  if (plan.alreadySent > 0) {
    say(t('cli.send.resuming', { sent: plan.alreadySent, total: plan.batchesTotal }));
  }
  say(t('cli.send.needsYes'));
}

function printContent(content: SendContent, t: Translate): void {
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
    ...(signal ? { signal } : {}),
  });
}

async function sendNonInteractive(ctx: Context, plan: SendPlan, t: Translate, json: boolean) {
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
          note(
            t('cli.send.progress', {
              batch: p.batchesDone,
              batches: p.batchesTotal,
              sent: p.recipientsDone,
              total: p.recipientsTotal,
            }),
          );
        }
      },
      controller.signal,
    );
    printResult(summary, plan, t, json);
  } catch (error) {
    if (controller.signal.aborted) {
      throw new CommandFailure(
        `Interrupted: the batches sent so far are recorded. Run the same command again${plan.keyGiven ? ` with --key ${plan.key}` : ''} to send the rest.`,
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
  say(t('admin.sendSms.sent', { count: summary.recipientsTotal }));
  say(t('cli.send.summary', { sent: summary.queued, skipped: summary.skipped.length }));
  for (const s of summary.skipped) {
    say(
      t('cli.send.skipped', {
        number: s.number,
        reason: t(
          s.reason === 'opted-out' ? 'cli.send.reasons.optedOut' : 'cli.send.reasons.invalid',
        ),
      }),
    );
  }
  if (summary.batchesSkipped > 0) {
    say(t('cli.send.resumed', { skipped: summary.batchesSkipped, total: summary.batchesTotal }));
  }
}
