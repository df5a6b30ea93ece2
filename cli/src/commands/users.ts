// `blockcatch users list|export --product flex|spark [filters]`: a table page, or every matching
// row as CSV or JSON streamed from the gateway's export.
import { localTimeZone } from '@blockcatch/sdk';
import { audienceFilters, product, type RawAudienceFlags } from '../flags.js';
import type { Invocation } from '../program.js';
import { loadAudience } from './audience.js';
import {
  type ListOutputOptions,
  listFormat,
  printListed,
  streamListed,
  type TableOutputOptions,
} from './list-output.js';
import { withContext } from './setup.js';

export interface UsersOptions extends RawAudienceFlags {
  product: string;
}

export const runUsersList = (invocation: Invocation<UsersOptions & TableOutputOptions>) =>
  runUsers(invocation, invocation.options, 'table');
export const runUsersExport = (invocation: Invocation<UsersOptions & ListOutputOptions>) =>
  runUsers(invocation, invocation.options, 'csv');

async function runUsers(
  invocation: Invocation<UsersOptions>,
  output: TableOutputOptions,
  fallback: 'table' | 'csv',
): Promise<void> {
  const raw = invocation.options;
  const forProduct = product(raw.product);
  const filters = audienceFilters(raw, forProduct);
  const format = listFormat(output, fallback);
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
      await streamListed(answer, format, t, { product: forProduct, filters });
      return;
    }
    const rows = await loadAudience(ctx, {
      kind: 'users',
      product: forProduct,
      filters,
      ...(raw.search ? { search: raw.search } : {}),
    });
    printListed(rows, format, t);
  });
}
