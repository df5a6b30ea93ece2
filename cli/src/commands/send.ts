// `blockcatch send sms|whatsapp --audience …`: a recipe in three steps. The plan (send-plan.ts)
// checks the flags, loads the recipients and names the send's job; the review shows it (a dry run
// through the gateway's preview, send-preview.ts, or the interactive review on a terminal,
// send-review.tsx); the execution (send-execute.ts) sends it as one job, so a re-run under the same
// key adds only who is missing.
import type { Context } from '../context.js';
import type { Translate } from '../i18n.js';
import { printJson } from '../output/json.js';
import type { Invocation } from '../program.js';
import { sendWithoutPrompt } from './send-execute.js';
import {
  planSend,
  readSendRequest,
  reportListProblems,
  type SendOptions,
  type SendPlan,
} from './send-plan.js';
import { previewRequest, previewSend, printDryRun } from './send-preview.js';
import { say, withContext } from './setup.js';

export async function runSend(invocation: Invocation<SendOptions>): Promise<void> {
  // Everything that can be checked without the network is checked before it.
  const request = readSendRequest(invocation.args[0], invocation.options);
  await withContext(invocation, async (ctx, { t }) => {
    const plan = await planSend(ctx, request);
    reportListProblems(plan, t);
    if (request.mode === 'test') {
      await sendTestToSelf(ctx, plan, t, request.json);
      return;
    }
    if (request.mode === 'dry-run') {
      const numbers = plan.set.recipients.map((r) => r.phone);
      printDryRun(plan, await previewSend(ctx, plan, numbers), t, request.json);
      return;
    }
    if (request.mode === 'interactive') {
      const { runInteractiveReview } = await import('./send-review.js');
      await runInteractiveReview(ctx, plan, t);
      return;
    }
    await sendWithoutPrompt(ctx, plan, t, request.json);
  });
}

/** `--test`: the message, rendered for the first recipient, to the signed-in admin's phone only. */
async function sendTestToSelf(ctx: Context, plan: SendPlan, t: Translate, json: boolean) {
  const first = plan.set.recipients[0]?.phone;
  const asked = previewRequest(plan, []);
  const result = await ctx.client.sends.test({
    ...(asked.channel === 'sms'
      ? { channel: 'sms', message: asked.message }
      : { channel: 'whatsapp', msgTemplate: asked.msgTemplate }),
    ...(first ? { renderFor: first } : {}),
  });
  if (json) {
    printJson(result);
    return;
  }
  say(t('cli.send.testSent', { to: result.to, renderedFor: result.renderedFor }));
  say(t('cli.send.previewLine', { to: result.renderedFor, text: result.text }));
}
