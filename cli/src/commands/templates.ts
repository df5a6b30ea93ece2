// `blockcatch templates list`: the WhatsApp templates a send can use (needs billing details).
import { printJson } from '../output/json.js';
import { renderTable } from '../output/table.js';
import type { Invocation } from '../program.js';
import { say, withContext } from './setup.js';

export async function runTemplatesList(invocation: Invocation<{ json?: true }>): Promise<void> {
  await withContext(invocation, async (ctx, { t }) => {
    const templates = await ctx.client.templates();
    if (invocation.options.json) {
      printJson({ count: templates.length, items: templates });
      return;
    }
    say(
      renderTable(
        [t('cli.templates.name'), t('cli.templates.language'), t('cli.templates.text')],
        templates.map((tpl) => [
          tpl.name,
          tpl.language,
          tpl.components.map((c) => c.text).join(' / '),
        ]),
      ).text,
    );
  });
}
