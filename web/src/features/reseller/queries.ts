// A reseller's own figures.
import { queryOptions } from '@tanstack/react-query';
import { gateway } from '../../sdk.js';

export const resellerQueries = {
  reseller: () =>
    queryOptions({
      queryKey: ['driver', 'reseller'],
      queryFn: () => gateway.driver.reseller(),
      // A refusal (not a reseller) is an answer, not a hiccup to retry.
      retry: false,
    }),
};
