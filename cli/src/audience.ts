// Loads the rows a list, an export or a send works on: Flex or Spark users through the audience
// filters, or invitees through mergeInvitees and filterInvitees; then the search box's match.
import {
  type AudienceFilters,
  filterAudience,
  filterInvitees,
  type InviteeFilters,
  mergeInvitees,
  type Product,
  searchRecipients,
} from '@blockcatch/sdk';
import type { Context } from './context.js';
import { CommandFailure } from './errors.js';
import { t } from './i18n.js';
import type { ListedRow } from './output/columns.js';

export type AudienceQuery =
  | { kind: 'users'; product: Product; filters: AudienceFilters; search?: string }
  | { kind: 'invitees'; filters: InviteeFilters; search?: string };

export async function loadAudience(ctx: Context, query: AudienceQuery): Promise<ListedRow[]> {
  let rows: ListedRow[];
  if (query.kind === 'users') {
    const billingDetails = query.filters.selectedReferral
      ? await requireBillingDetails(ctx)
      : false;
    const users =
      query.product === 'flex' ? await ctx.client.flex.users() : await ctx.client.spark.users();
    rows = filterAudience<ListedRow & (typeof users)[number]>(users, query.filters, {
      product: query.product,
      billingDetails,
    });
  } else {
    const [invitations, users] = await Promise.all([
      ctx.client.invitations(),
      ctx.client.flex.users(),
    ]);
    rows = filterInvitees(mergeInvitees(invitations, users), query.filters);
  }
  return query.search ? searchRecipients(rows, query.search) : rows;
}

async function requireBillingDetails(ctx: Context): Promise<true> {
  const me = await ctx.client.me();
  if (!me.role?.properties.billingDetails) {
    throw new CommandFailure(t('cli.errors.referralNeedsBilling'));
  }
  return true;
}
