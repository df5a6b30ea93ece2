// The driver's home screen: state, outcomes, offers and reaction time.
import type { OfferKind } from '@blockcatch/sdk';
import { queryOptions } from '@tanstack/react-query';
import { gateway } from '../../sdk.js';

export const dashboardQueries = {
  dashboard: () =>
    queryOptions({ queryKey: ['driver', 'dashboard'], queryFn: () => gateway.driver.dashboard() }),
  outcomes: () =>
    queryOptions({ queryKey: ['driver', 'outcomes'], queryFn: () => gateway.driver.outcomes() }),
  offers: (kind: OfferKind) =>
    queryOptions({
      queryKey: ['driver', 'offers', kind],
      queryFn: () => gateway.driver.offers({ kind, limit: 20 }),
    }),
  latency: () =>
    queryOptions({ queryKey: ['driver', 'latency'], queryFn: () => gateway.driver.latency() }),
};
