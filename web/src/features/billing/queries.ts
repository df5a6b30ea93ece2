// The week's price, and the admin billing overview.
import { queryOptions } from '@tanstack/react-query';
import { gateway } from '../../sdk.js';

export const paymentQueries = {
  price: () =>
    queryOptions({ queryKey: ['payments', 'price'], queryFn: () => gateway.payments.price() }),
  overview: () =>
    queryOptions({
      queryKey: ['admin', 'billing', 'overview'],
      queryFn: () => gateway.admin.billingOverview(),
    }),
};
