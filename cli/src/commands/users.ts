// `blockcatch users list|export --product flex|spark [filters]`: a table page, or every matching
// row as CSV or JSON streamed from the gateway's export.
import { defineCommand, defineGroup, type Invocation } from '../command.js';
import {
  type AudienceFlags,
  type ListOutputFlags,
  productOption,
  type TableOutputFlags,
  withAudienceFlags,
  withListOutput,
  withTableOutput,
} from '../flag-sets.js';

type UsersFlags = AudienceFlags & { product: string } & ListOutputFlags & Partial<TableOutputFlags>;

async function runUsers(invocation: Invocation<UsersFlags>, fallback: 'table' | 'csv') {
  const [{ localTimeZone }, { audienceFilters, product }, out, { loadAudience }, { withContext }] =
    await Promise.all([
      import('@blockcatch/sdk'),
      import('../flags.js'),
      import('../output/list-output.js'),
      import('../audience.js'),
      import('../setup.js'),
    ]);
  const raw = invocation.options;
  const forProduct = product(raw.product);
  const filters = audienceFilters(raw, forProduct);
  const format = out.listFormat(raw, fallback);
  await withContext(invocation, async (ctx, { t }) => {
    if (format.kind !== 'table') {
      // The gateway filters and streams: the same filters, the same columns, no table in memory.
      const answer = await ctx.client.exportUsers({
        product: forProduct,
        format: format.kind === 'csv' ? 'csv' : 'ndjson',
        timeZone: localTimeZone(),
        ...filters,
        ...(raw.search ? { search: raw.search } : {}),
      });
      await out.streamListed(answer, format, t, { product: forProduct, filters });
      return;
    }
    const rows = await loadAudience(ctx, {
      kind: 'users',
      product: forProduct,
      filters,
      ...(raw.search ? { search: raw.search } : {}),
    });
    out.printListed(rows, format, t);
  });
}

export const users = defineGroup({
  name: 'users',
  description: 'cli.help.users',
  commands: [
    defineCommand({
      name: 'list',
      description: 'cli.help.usersList',
      flags: (c) => withTableOutput(withAudienceFlags(c.addOption(productOption()))),
      examples: [
        'blockcatch users list --product flex --region miami --page 2 --rows-per-page 40',
        'blockcatch users list --product flex --search 555-0105 --wide',
        'blockcatch users list --product spark --good-standing no --json',
      ],
      run: (invocation) => runUsers(invocation, 'table'),
    }),
    defineCommand({
      name: 'export',
      description: 'cli.help.usersExport',
      flags: (c) => withListOutput(withAudienceFlags(c.addOption(productOption()))),
      examples: [
        'blockcatch users export --product flex --csv flex-users.csv',
        'blockcatch users export --product spark --expires-to 2026-03-31 > expiring.csv',
      ],
      run: (invocation) => runUsers(invocation, 'csv'),
    }),
  ],
});
