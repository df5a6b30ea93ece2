// The review step of `send` on a terminal: the filter summary, review, confirmation and progress
// in Ink. The views draw and report intents; this file owns the send and the end of the run.
import { localTimeZone } from '@blockcatch/sdk';
import { render } from 'ink';
import type { Context } from '../context.js';
import { CommandFailure } from '../errors.js';
import type { Translate } from '../i18n.js';
import { columnTitles, displayRow } from '../output/columns.js';
import type { ReviewColumn } from '../views/Review.js';
import { SendFlow } from '../views/SendFlow.js';
import type { FlowState, ReviewRow } from '../views/send-flow-state.js';
import type { AudienceQuery } from './audience.js';
import { executeSend } from './send-execute.js';
import { type SendPlan, sendKey } from './send-plan.js';

const WIDTHS = {
  name: 18,
  phone: 17,
  referral: 10,
  region: 12,
  goodStanding: 6,
  accountConnected: 6,
  filtersComplete: 6,
  expirationDate: 9,
  status: 4,
} as const;

export async function runInteractiveReview(
  ctx: Context,
  plan: SendPlan,
  t: Translate,
): Promise<void> {
  const timeZone = localTimeZone();
  const titles = columnTitles(t);
  const columns: ReviewColumn[] = Object.entries(WIDTHS).map(([key, width]) => ({
    key,
    title: titles[key as keyof typeof titles],
    width,
  }));
  const rows: ReviewRow[] = plan.set.recipients.map(({ phone, row }) => ({
    ...row,
    phone,
    cells: displayRow(row, t, timeZone),
  }));
  const message = messageLines(plan, t);
  if (plan.alreadySent > 0) {
    message.push(t('cli.send.resuming', { sent: plan.alreadySent, total: plan.batchesTotal }));
  }

  let finished = 'cancelled' as FlowState['step'];
  let failure: string | null = null;
  const instance = render(
    <SendFlow
      t={t}
      rows={rows}
      columns={columns}
      filters={filterLines(plan.query, t)}
      message={message}
      onSend={async (phones, report) => {
        // The review may have taken people out: the key must name what is actually sent.
        const chosen = phones.length === rows.length ? plan : await replan(plan, phones);
        try {
          const summary = await executeSend(ctx, chosen, phones, (p) =>
            report({
              done: p.recipientsDone,
              total: p.recipientsTotal,
              batch: p.batchesDone,
              batches: p.batchesTotal,
            }),
          );
          return `${t('admin.sendSms.sent', { count: summary.recipientsTotal })} ${t('cli.send.summary', { sent: summary.queued, skipped: summary.skipped.length })}`;
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
    { exitOnCtrlC: true },
  );
  await instance.waitUntilExit();
  if (finished === 'failed')
    throw new CommandFailure(`${t('admin.sendSms.sendFailed')} ${failure ?? ''}`.trim());
}

async function replan(plan: SendPlan, phones: string[]): Promise<SendPlan> {
  if (plan.keyGiven) return plan;
  return { ...plan, key: await sendKey(plan.content, phones) };
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

function filterLines(query: AudienceQuery, t: Translate): Array<[string, string]> {
  const lines: Array<[string, string]> = [
    [
      t('admin.sendSms.audience'),
      query.kind === 'users'
        ? t(`admin.sendSms.${query.product}`)
        : t('admin.notifications.unpaidInvitations'),
    ],
  ];
  for (const [name, value] of Object.entries(query.filters)) {
    if (value !== undefined && value !== '') lines.push([name, String(value)]);
  }
  if (query.search) lines.push([t('common.search'), query.search]);
  return lines;
}
