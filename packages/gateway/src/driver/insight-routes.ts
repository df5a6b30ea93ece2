// GET /api/flex/v1/station-insight: what every driver's offers of the last 4 weeks say about each
// station, by hour of the week, with at least 5 drivers behind every figure.
import { INSIGHT_MIN_DRIVERS, INSIGHT_WEEKS, stationInsightResponseSchema } from '@blockcatch/sdk';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { DeliveryPlatform } from '../platform/types.js';
import type { Queryable } from '../storage/db.js';
import { readStationInsight } from '../storage/station-insight.js';

const WEEK_MS = 7 * 86_400_000;

export function registerInsightRoutes(
  app: FastifyInstance,
  deps: { db: Queryable; platform: DeliveryPlatform; now?: () => number },
): void {
  const { db, platform } = deps;
  const now = deps.now ?? Date.now;
  app
    .withTypeProvider<ZodTypeProvider>()
    .get(
      '/api/flex/v1/station-insight',
      { config: { auth: 'user' }, schema: { response: { 200: stationInsightResponseSchema } } },
      async () => {
        const to = now();
        const from = to - INSIGHT_WEEKS * WEEK_MS;
        const stations = await platform.listServiceAreas();
        const Items = await readStationInsight(db, {
          stations,
          from,
          to,
          minDrivers: INSIGHT_MIN_DRIVERS,
        });
        return { from, to, minDrivers: INSIGHT_MIN_DRIVERS, Items };
      },
    );
}
