// GET /api/flex/v1/admin/send-results: the Sends page's results over time, per send and per week.
import {
  type SendJobOutcome,
  sendResultsQuerySchema,
  sendResultsSchema,
  weeklyResults,
  weekOf,
} from '@blockcatch/sdk';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { GatewayConfig } from '../config.js';
import type { Queryable } from '../storage/db.js';
import { listResultJobs, readJobResults } from '../storage/send-results.js';

const WEEK_MS = 7 * 86_400_000;

export function registerSendResultsRoute(
  app: FastifyInstance,
  deps: { db: Queryable; config: GatewayConfig; now: () => number },
): void {
  const api = app.withTypeProvider<ZodTypeProvider>();
  api.get(
    '/api/flex/v1/admin/send-results',
    {
      config: { auth: 'admin' },
      schema: { querystring: sendResultsQuerySchema, response: { 200: sendResultsSchema } },
    },
    async (request) => {
      const now = deps.now();
      const weeks = request.query.weeks ?? 12;
      const since = Date.parse(`${weekOf(now - (weeks - 1) * WEEK_MS)}T00:00:00Z`);
      const jobs = await listResultJobs(deps.db, since);
      const results = await readJobResults(
        deps.db,
        jobs.map((j) => j.id),
        now,
      );
      const sends = jobs.map((job): SendJobOutcome => {
        const r = results.get(job.id)!;
        const cost =
          job.channel === 'sms'
            ? r.segments * deps.config.smsSegmentPrice
            : r.billable * deps.config.whatsappMessagePrice;
        return {
          jobId: job.id,
          createdAt: job.createdTs,
          channel: job.channel,
          body: job.body,
          recipients: r.recipients,
          delivered: r.delivered,
          failed: r.failed,
          failedByReason: r.failedByReason,
          optedOut: r.optedOut,
          clicks: r.clicks,
          conversions: r.conversions,
          revenue: r.revenueCents / 100,
          cost: Math.round(cost * 10_000) / 10_000,
          final: r.final,
        };
      });
      return { weeks: weeklyResults(sends, since, now), sends };
    },
  );
}
