// The review step of `send` on a terminal: the filter summary, review, confirmation and progress
// in Ink. The views draw and report intents; this file owns the send and the end of the run, and
// asks the gateway's send preview which numbers it would skip, how many wait for quiet hours, and
// how the message reads for the first selected recipient.
import { localTimeZone, type SendPreview } from '@blockcatch/sdk';
import { render } from 'ink';
import type { AudienceQuery } from '../../audience.js';
import type { Context } from '../../context.js';
import { CommandFailure, Interrupted } from '../../errors.js';
import type { Translate } from '../../i18n.js';
import { COLUMN_KEYS, columnTitles, DROP_ORDER, displayRow, WHO } from '../../output/columns.js';
import type { ReviewColumn } from '../../views/Review.js';
import { SendFlow } from '../../views/SendFlow.js';
import type { FlowState, ReviewRow } from '../../views/send-flow-state.js';
import { executeSend, interrupted, resultLine } from './execute.js';
import type { SendPlan } from './plan.js';
import { previewRequest } from './preview.js';

export async function runInteractiveReview(
  ctx: Context,
  plan: SendPlan,
  t: Translate,
): Promise<void> {
  const timeZone = localTimeZone();
  const titles = columnTitles(t);
  const columns: ReviewColumn[] = COLUMN_KEYS.map((key) => ({ key, title: titles[key] }));
  const ask = (numbers: string[]) => previewOf(ctx, plan, numbers);
  const whole = await ask(plan.set.recipients.map((r) => r.phone));
  const blocked = new Map(whole?.skipped.map((s) => [s.number, s.reason]));
  const rows: ReviewRow[] = plan.set.recipients.map(({ phone, row }) => ({
    ...row,
    phone,
    cells: displayRow(row, t, timeZone, 'short'),
    blocked: blocked.get(phone),
  }));
  const message = messageLines(plan, t);
  if (blocked.size > 0) message.push(t('cli.review.blocked', { count: blocked.size }));
  if (whole && whole.waitingForQuietHours > 0) {
    message.push(t('cli.review.waiting', { count: whole.waitingForQuietHours }));
  }
  // The first recipient's rendering came with the whole preview; others are asked one by one.
  const rendered = new Map<string, string>();
  if (whole?.preview) rendered.set(whole.preview.to, whole.preview.text);
  const previewFor = async (phone: string) => {
    const known = rendered.get(phone);
    if (known !== undefined) return known;
    const text = (await ask([phone]))?.preview?.text ?? null;
    if (text !== null) rendered.set(phone, text);
    return text;
  };
  if (whole?.earlier) {
    message.push(t('cli.send.would.earlier', { count: whole.earlier, job: whole.jobId ?? '-' }));
  }

  // Stays null when the flow exits Ink without finishing: that is Ctrl-C.
  let finished = null as FlowState['step'] | null;
  let failure: string | null = null;
  let sending = false;
  const controller = new AbortController();
  const instance = render(
    <SendFlow
      t={t}
      rows={rows}
      columns={columns}
      dropOrder={DROP_ORDER}
      lastToShrink={WHO}
      filters={filterLines(plan.query, t)}
      message={message}
      previewFor={previewFor}
      onSend={async (phones, report) => {
        // The key names the content's job, not who was selected: deselecting someone after a
        // resume keeps the job, and only the selected people it does not have are added.
        sending = true;
        try {
          const summary = await executeSend(
            ctx,
            plan,
            phones,
            (p) => report({ done: p.recipientsDone, total: p.recipientsTotal }),
            controller.signal,
          );
          return `${resultLine(summary, t)} ${t('cli.send.summary', { sent: summary.queued, skipped: summary.skipped.length })}`;
        } catch (error) {
          failure = error instanceof Error ? error.message : String(error);
          throw new Error(t('admin.sendSms.sendFailed'));
        }
      }}
      onFinish={(step) => {
        finished = step;
        // Let Ink draw the last frame before it lets go of the terminal.
        setTimeout(() => instance.unmount(), 0);
      }}
    />,
    // The flow reads Ctrl-C itself, alone or among keys read together (SendFlow), and exits Ink.
    { exitOnCtrlC: false },
  );
  await instance.waitUntilExit();
  if (finished === null) {
    // Ctrl-C: stop the send between parts; a re-run adds only who is missing.
    controller.abort();
    throw sending ? interrupted(plan, t) : new Interrupted(t('cli.review.cancelled'));
  }
  if (finished === 'failed')
    throw new CommandFailure(`${t('admin.sendSms.sendFailed')} ${failure ?? ''}`.trim());
}

/** The gateway's preview of sending the plan to `numbers`, or null when it cannot answer. */
async function previewOf(
  ctx: Context,
  plan: SendPlan,
  numbers: string[],
): Promise<SendPreview | null> {
  if (numbers.length === 0) return null;
  try {
    // A preview is a courtesy: without one the review still works, so a failure is not the run's.
    return await ctx.client.sends.preview(previewRequest(plan, numbers));
  } catch {
    return null;
  }
}

function messageLines(plan: SendPlan, t: Translate): string[] {
  if (plan.content.channel === 'sms') {
    const s = plan.content.segments;
    return [
      t('cli.send.messageLine', { text: plan.content.text }),
      t('cli.send.segments', {
        encoding: s.encoding,
        segments: s.segments,
        remaining: s.remainingInSegment,
      }),
    ];
  }
  return [
    t('cli.send.templateLine', {
      name: plan.content.template.name,
      language: plan.content.template.language,
    }),
  ];
}

/** Where each filter's label comes from: the web screens' own words. */
const FILTER_LABELS: Record<string, string> = {
  startDate: 'admin.sendSms.creationStart',
  endDate: 'admin.sendSms.creationEnd',
  startExpirationDate: 'admin.sendSms.expirationStart',
  endExpirationDate: 'admin.sendSms.expirationEnd',
  byGoodStanding: 'admin.sendSms.goodStanding',
  byProxyInstalled: 'admin.sendSms.proxyInstalled',
  bySetupComplete: 'admin.sendSms.setupComplete',
  byRegion: 'admin.sendSms.region',
  selectedReferral: 'admin.sendSms.referral',
  invitedFrom: 'admin.notifications.invitedFrom',
  invitedTo: 'admin.notifications.invitedTo',
  registered: 'admin.notifications.registered',
  proxyInstalled: 'admin.notifications.proxyInstalled',
  setupComplete: 'admin.notifications.setupComplete',
};

const TRI_WORDS: Record<string, string> = { yes: 'common.yes', no: 'common.no', all: 'common.all' };

/** The filters in words, as the form shows them: "Good standing: No". */
export function filterLines(query: AudienceQuery, t: Translate): Array<[string, string]> {
  const lines: Array<[string, string]> = [
    [
      t('admin.sendSms.audience'),
      query.kind === 'users'
        ? t(`admin.sendSms.${query.product}`)
        : t('admin.notifications.unpaidInvitations'),
    ],
  ];
  for (const [name, value] of Object.entries(query.filters)) {
    if (value === undefined || value === '' || typeof value !== 'string') continue;
    const label = FILTER_LABELS[name];
    const word = TRI_WORDS[value];
    lines.push([label ? t(label) : name, word ? t(word) : value]);
  }
  if (query.search) lines.push([t('common.search'), query.search]);
  return lines;
}
