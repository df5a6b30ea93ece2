// `blockcatch send sms|whatsapp --audience …`: a recipe in three steps. The plan (send-plan.ts)
// checks the flags, loads the recipients and names the send's job; the review shows it (a dry run
// through the gateway's preview, send-preview.ts, or the interactive review on a terminal,
// send-review.tsx); the execution (send-execute.ts) sends it as one job, so a re-run under the same
// key adds only who is missing.
import type { Invocation } from '../program.js';
import { sendWithoutPrompt } from './send-execute.js';
import { planSend, readSendRequest, reportListProblems, type SendOptions } from './send-plan.js';
import { previewSend, printDryRun } from './send-preview.js';
import { withContext } from './setup.js';

export async function runSend(invocation: Invocation<SendOptions>): Promise<void> {
  // Everything that can be checked without the network is checked before it.
  const request = readSendRequest(invocation.args[0], invocation.options);
  await withContext(invocation, async (ctx, { t }) => {
    const plan = await planSend(ctx, request);
    reportListProblems(plan, t);
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
