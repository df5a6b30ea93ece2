// `blockcatch templates list`: the WhatsApp templates a send can use (needs billing details).
import { defineCommand, defineGroup } from '../command.js';
import { jsonOnly } from '../flag-sets.js';

export const templates = defineGroup({
  name: 'templates',
  description: 'cli.help.templates',
  commands: [
    defineCommand({
      name: 'list',
      description: 'cli.help.templatesList',
      flags: jsonOnly,
      examples: ['blockcatch templates list', 'blockcatch templates list --json'],
      async run(invocation) {
        const [{ printJson }, { renderTable }, { say, withContext }] = await Promise.all([
          import('../output/json.js'),
          import('../output/table.js'),
          import('../setup.js'),
        ]);
        await withContext(invocation, async (ctx, { t }) => {
          const list = await ctx.client.templates();
          if (invocation.options.json) {
            printJson({ count: list.length, items: list });
            return;
          }
          say(
            renderTable(
              [t('cli.templates.name'), t('cli.templates.language'), t('cli.templates.text')],
              list.map((tpl) => [
                tpl.name,
                tpl.language,
                tpl.components.map((c) => c.text).join(' / '),
              ]),
            ).text,
          );
        });
      },
    }),
  ],
});
