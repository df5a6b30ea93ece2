// `blockcatch users list|export --product flex|spark [filters]`: a table page, or every matching
// row as CSV or JSON streamed from the gateway's export.
import { localTimeZone } from '@blockcatch/sdk';
import { audienceFilters, product, type RawAudienceFlags } from '../flags.js';
import { writeExport } from '../output/export-stream.js';
import type { Invocation } from '../program.js';
import { loadAudience } from './audience.js';
import {
  type ListOutputOptions,
  listFormat,
  printListed,
  reportWritten,
  type TableOutputOptions,
} from './list-output.js';
import { note, withContext } from './setup.js';

export interface UsersOptions extends RawAudienceFlags {
  product: string;
}

export const runUsersList = (invocation: Invocation<UsersOptions & TableOutputOptions>) =>
  runUsers(invocation, invocation.options, 'table');
export const runUsersExport = (invocation: Invocation<UsersOptions & ListOutputOptions>) =>
  runUsers(invocation, { ...invocation.options, export: true }, 'csv');

async function runUsers(
  invocation: Invocation<UsersOptions>,
  output: TableOutputOptions & { export?: true },
  fallback: 'table' | 'csv',
): Promise<void> {
  const raw = invocation.options;
  const forProduct = product(raw.product);
  const filters = audienceFilters(raw, forProduct);
  const format = listFormat(output, fallback);
  await withContext(invocation, async (ctx, { t }) => {
    if (format.kind === 'csv') {
      // The gateway filters and streams: the same filters, the same columns, no table in memory.
      const answer = await ctx.client.exportUsers({
        product: forProduct,
        format: 'csv',
        timeZone: localTimeZone(),
        ...filters,
        ...(raw.search ? { search: raw.search } : {}),
      });
      await writeExport(answer, format.file, (count) =>
        note(t('cli.export.progress', { count, total: answer.total })),
      );
      if (format.file !== undefined) reportWritten(t, answer.total, format.file);
      return;
    }
    const rows = await loadAudience(ctx, {
      kind: 'users',
      product: forProduct,
      filters,
      ...(raw.search ? { search: raw.search } : {}),
    });
    await printListed(rows, format, t, { product: forProduct, filters });
  });
}
