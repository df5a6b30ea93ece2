// `blockcatch users list|export --product flex|spark [filters]`.
import { audienceFilters, product, type RawAudienceFlags } from '../flags.js';
import type { Invocation } from '../program.js';
import { loadAudience } from './audience.js';
import { listFormat, printListed } from './list-output.js';
import { withContext } from './setup.js';

export const runUsersList = (invocation: Invocation) => runUsers(invocation, 'table');
export const runUsersExport = (invocation: Invocation) => runUsers(invocation, 'csv');

async function runUsers(invocation: Invocation, fallback: 'table' | 'csv'): Promise<void> {
  const raw = invocation.options as RawAudienceFlags & Record<string, unknown>;
  const forProduct = product(raw.product);
  const filters = audienceFilters(raw, forProduct);
  const format = listFormat(invocation.options, fallback);
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
