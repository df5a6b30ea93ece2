// `blockcatch send sms|whatsapp --audience …`: a recipe in three steps. The plan (plan.ts) checks
// the flags, loads the recipients and names the send's job; the review shows it (a dry run through
// the gateway's preview, preview.ts, or the interactive review on a terminal, review.tsx); the
// execution (execute.ts) sends it as one job, so a re-run under the same key adds only who is
// missing.
import { defineCommand } from '../../command.js';
import { t } from '../../i18n.js';
import { cronExample } from '../../self-command.js';
import { sendFlags } from './flags.js';

export const send = defineCommand({
  name: 'send',
  description: 'cli.help.send',
  flags: sendFlags,
  examples: [
    'blockcatch send sms --audience flex --good-standing no --message "Your week ends today"',
    'blockcatch send sms --audience invitees --registered no --message-file invite.txt --dry-run --json',
    'blockcatch send whatsapp --audience spark --template service_expiring --template-language es_MX --var week=1 --exclude opted-out.csv --yes',
    'fortune | blockcatch send sms --audience flex --message-file - --allow-multipart --dry-run',
  ],
  after: () => `${t('cli.help.sendAfter')}\n  ${cronExample()}`,
  async run(invocation) {
    const [execute, plans, preview, { withContext }] = await Promise.all([
      import('./execute.js'),
      import('./plan.js'),
      import('./preview.js'),
      import('../../setup.js'),
    ]);
    // Everything that can be checked without the network is checked before it.
    const request = plans.readSendRequest(invocation.args[0], invocation.options);
    await withContext(invocation, async (ctx, { t }) => {
      const plan = await plans.planSend(ctx, request);
      plans.reportListProblems(plan, t);
      if (request.mode === 'test') {
        const { sendTestToSelf } = await import('./test-send.js');
        await sendTestToSelf(ctx, plan, t, request.json);
        return;
      }
      if (request.mode === 'dry-run') {
        const numbers = plan.set.recipients.map((r) => r.phone);
        preview.printDryRun(plan, await preview.previewSend(ctx, plan, numbers), t, request.json);
        return;
      }
      if (request.mode === 'interactive') {
        const { runInteractiveReview } = await import('./review.js');
        await runInteractiveReview(ctx, plan, t);
        return;
      }
      await execute.sendWithoutPrompt(ctx, plan, t, request.json);
    });
  },
});
