// The driver's filters, alert channels and marketing consent.
import { queryOptions } from '@tanstack/react-query';
import { gateway } from '../../sdk.js';

export const filterQueries = {
  settings: () =>
    queryOptions({ queryKey: ['driver', 'settings'], queryFn: () => gateway.driver.settings() }),
  alerts: () =>
    queryOptions({
      queryKey: ['driver', 'alerts'],
      queryFn: () => gateway.driver.alertSettings(),
    }),
  marketingConsent: () =>
    queryOptions({
      queryKey: ['driver', 'marketing-consent'],
      queryFn: () => gateway.driver.marketingConsent(),
    }),
};
