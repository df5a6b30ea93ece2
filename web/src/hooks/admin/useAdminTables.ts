// The admin area's tables, each loaded through the SDK's gateway client and shared by key.
import type { Product, UserRow } from '@blockcatch/sdk';
import { gateway } from '../../sdk.js';
import { useGatewayQuery } from './useGatewayQuery.js';

export function useUsers(product: Product) {
  return useGatewayQuery<UserRow[]>(`users:${product}`, () =>
    product === 'flex' ? gateway.flex.users() : gateway.spark.users(),
  );
}

export function useFlexUsers() {
  return useGatewayQuery('users:flex', () => gateway.flex.users());
}

export function useInvitations() {
  return useGatewayQuery('invitations', () => gateway.invitations());
}

/** Referral codes; only asked for with the billing-details permission (the gateway refuses otherwise). */
export function useReferrals(billingDetails: boolean) {
  return useGatewayQuery('referrals', () => gateway.referrals(), billingDetails);
}

/** WhatsApp templates; only with the billing-details permission. */
export function useTemplates(billingDetails: boolean) {
  return useGatewayQuery('templates', () => gateway.templates(), billingDetails);
}
