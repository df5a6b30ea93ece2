// `blockcatch outbox`: what the sandbox's message provider delivered, newest first.
import { defineCommand } from '../command.js';
import { t } from '../i18n.js';

export const outbox = defineCommand({
  name: 'outbox',
  description: 'cli.help.outbox',
  flags: (c) =>
    c
      .option('--to <phone>', t('cli.help.outboxTo'))
      .option('--limit <n>', t('cli.help.outboxLimit'))
      .option('--json', t('cli.help.jsonPlain')),
  examples: ['blockcatch outbox --limit 5', 'blockcatch outbox --to 3055550123 --json'],
  async run(invocation) {
    const [sdk, { z }, { badFlag }, { flag }, { printJson }, table, time, { say, withContext }] =
      await Promise.all([
        import('@blockcatch/sdk'),
        import('zod'),
        import('../errors.js'),
        import('../flags.js'),
        import('../output/json.js'),
        import('../output/table.js'),
        import('../output/time.js'),
        import('../setup.js'),
      ]);
    const { options } = invocation;
    const limit = flag(
      '--limit',
      z.coerce.number().int().min(1).max(1000),
      options.limit ?? '20',
      t('cli.errors.wholeNumberFix', { min: 1, max: 1000 }),
    );
    let to: string | undefined;
    if (options.to !== undefined) {
      to = sdk.normalizePhone(options.to) ?? undefined;
      if (!to) throw badFlag('--to', options.to, t('cli.errors.phoneFix'));
    }
    await withContext(invocation, async (ctx, { t }) => {
      const items = await ctx.client.outbox({ limit, ...(to ? { to } : {}) });
      if (options.json) {
        printJson({ count: items.length, items: time.withIsoTimes(items) });
        return;
      }
      say(
        table.renderTable(
          [
            t('cli.outbox.id'),
            t('cli.outbox.channel'),
            t('cli.outbox.to'),
            t('cli.outbox.body'),
            t('cli.outbox.at'),
          ],
          items.map((m) => [
            String(m.id),
            m.channel,
            m.to,
            m.body.length > 60 ? `${m.body.slice(0, 57)}...` : m.body,
            time.isoTime(m.createdAt),
          ]),
        ).text,
      );
    });
  },
});
