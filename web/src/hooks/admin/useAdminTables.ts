// The admin area's tables through TanStack Query: screens that show the same table share one
// request and one cache entry; a failed load is retried when the screen is opened again.
import type { Product } from '@blockcatch/sdk';
import { useQuery } from '@tanstack/react-query';
import { adminQueries } from '../../lib/queries.js';

export function useUsers(product: Product) {
  return useQuery(adminQueries.users(product));
}

export function useFlexUsers() {
  return useQuery(adminQueries.flexUsers());
}

export function useInvitations() {
  return useQuery(adminQueries.invitations());
}

/** Referral codes; only asked for with the billing-details permission (the gateway refuses otherwise). */
export function useReferrals(billingDetails: boolean) {
  return useQuery({ ...adminQueries.referrals(), enabled: billingDetails });
}

/** WhatsApp templates; only with the billing-details permission. */
export function useTemplates(billingDetails: boolean) {
  return useQuery({ ...adminQueries.templates(), enabled: billingDetails });
}
