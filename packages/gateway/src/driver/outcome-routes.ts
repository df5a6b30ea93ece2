// Outcomes over the last day and week (GET /api/flex/v1/outcomes): offers seen, wanted, won, lost
// to faster drivers, refused by which rules, and how fast the catcher reacted; an admin reads the
// same for one driver or across all drivers.
import {
  normalizePhone,
  type Outcomes,
  outcomesResponseSchema,
  summarizeOutcomes,
} from '@blockcatch/sdk';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { notFound } from '../http/errors.js';
import { phoneParamSchema } from '../http/phone-param.js';
import type { Queryable } from '../storage/db.js';
import { countOutcomes } from '../storage/driver-outcomes.js';
import { findUserByPhone } from '../storage/users.js';

const DAY_MS = 86_400_000;

/** The last 24 hours and the last 7 days before `now`, for one driver or (null) all of them. */
async function readOutcomes(db: Queryable, userId: string | null, now: number): Promise<Outcomes> {
  const window = async (days: number) => {
    const from = now - days * DAY_MS;
    const { counts, medianReactionMs } = await countOutcomes(db, userId, from, now);
    return summarizeOutcomes(counts, medianReactionMs, { from, to: now });
  };
  const [day, week] = await Promise.all([window(1), window(7)]);
  return { day, week };
}

export function registerOutcomeRoutes(
  app: FastifyInstance,
  deps: { db: Queryable; now?: () => number },
): void {
  const { db } = deps;
  const now = deps.now ?? Date.now;
  const api = app.withTypeProvider<ZodTypeProvider>();
  const answer = { response: { 200: outcomesResponseSchema } };

  api.get(
    '/api/flex/v1/outcomes',
    { config: { auth: 'user' }, schema: answer },
    async (request) => ({
      Item: await readOutcomes(db, request.principal.user.id, now()),
    }),
  );

  api.get(
    '/api/flex/v1/admin/users/:phone/outcomes',
    { config: { auth: 'admin' }, schema: { params: phoneParamSchema, ...answer } },
    async (request) => {
      const phone = normalizePhone(request.params.phone)!;
      const user = await findUserByPhone(db, 'flex', phone);
      if (!user) throw notFound(`No Flex user has the phone number ${phone}.`);
      return { Item: await readOutcomes(db, user.id, now()) };
    },
  );

  api.get(
    '/api/flex/v1/admin/outcomes',
    { config: { auth: 'admin' }, schema: answer },
    async () => ({
      Item: await readOutcomes(db, null, now()),
    }),
  );
}
