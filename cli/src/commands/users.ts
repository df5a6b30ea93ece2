// `blockcatch users list|export --product flex|spark [filters]`: a table page, or every matching
// row as CSV or JSON streamed from the gateway's export.
import { audienceFilters, product, type RawAudienceFlags } from '../flags.js';
import type { Invocation } from '../program.js';
import { loadAudience } from './audience.js';
import {
  type ListOutputOptions,
  listFormat,
  printListed,
  type TableOutputOptions,
} from './list-output.js';
import { withContext } from './setup.js';

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
    const rows = await loadAudience(ctx, {
      kind: 'users',
      product: forProduct,
      filters,
      ...(raw.search ? { search: raw.search } : {}),
    });
    await printListed(rows, format, t, { product: forProduct, filters });
  });
}
