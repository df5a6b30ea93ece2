// `blockcatch send sms|whatsapp --audience …`: a recipe in three steps. The plan (send-plan.ts)
// checks the flags, loads the recipients and names the send; the review shows it (a dry run, or the
// interactive review on a terminal, send-review.tsx); the execution (send-execute.ts) sends it in
// journalled batches, so an interrupted run resumes with the same key.
import type { Invocation } from '../program.js';
import { sendWithoutPrompt } from './send-execute.js';
import {
  planSend,
  printDryRun,
  readSendRequest,
  reportListProblems,
  type SendOptions,
} from './send-plan.js';
import { withContext } from './setup.js';

export async function runSend(invocation: Invocation<SendOptions>): Promise<void> {
  // Everything that can be checked without the network is checked before it.
  const request = readSendRequest(invocation.args[0], invocation.options);
  await withContext(invocation, async (ctx, { t }) => {
    const plan = await planSend(ctx, request);
    reportListProblems(plan, t);
    if (request.mode === 'dry-run') {
      printDryRun(plan, t, request.json);
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
