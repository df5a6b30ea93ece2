// Support requests: a signed-in driver asks (name and phone from the account) and reads their own;
// staff read the inbox and answer, the answer texted to the driver or shown in the app only.
import {
  MAX_OPEN_SUPPORT_REQUESTS,
  newSupportRequestSchema,
  supportInboxQuerySchema,
  supportReplySchema,
  supportRequestResponseSchema,
  supportRequestsResponseSchema,
} from '@blockcatch/sdk';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { appBaseUrl, type GatewayConfig } from '../config.js';
import { ApiError, notFound } from '../http/errors.js';
import type { Enqueue } from '../messaging/enqueue.js';
import type { Db } from '../storage/db.js';
import {
  answerSupportRequest,
  insertSupportRequest,
  listOwnSupportRequests,
  listSupportInbox,
} from '../storage/support-requests.js';
import { supportReplyText } from './texts.js';

const PATH = '/api/flex/v1/support';
const ADMIN_PATH = '/api/flex/v1/admin/support';
/** A request's JSON at most: 2,000 characters escaped as \uXXXX, and the topic. */
const BODY_LIMIT = 16 * 1024;
/** Requests a list answers with at most. */
const LIST_LIMIT = 200;

export function registerSupportRoutes(
  app: FastifyInstance,
  deps: {
    db: Db;
    config: Pick<GatewayConfig, 'publicUrl' | 'host' | 'port'>;
    enqueue: Enqueue;
    now?: () => number;
  },
): void {
  const { db } = deps;
  const now = deps.now ?? Date.now;
  const baseUrl = appBaseUrl(deps.config);
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.post(
    PATH,
    {
      bodyLimit: BODY_LIMIT,
      config: { auth: 'user' },
      schema: { body: newSupportRequestSchema, response: { 201: supportRequestResponseSchema } },
    },
    async (request, reply) => {
      const { user } = request.principal;
      const created = await insertSupportRequest(
        db,
        { id: user.id, name: user.name, phoneNumber: user.phone_number },
        request.body,
        { maxOpen: MAX_OPEN_SUPPORT_REQUESTS, now: now() },
      );
      if (!created) {
        throw new ApiError(
          429,
          'rate_limited',
          `You have ${MAX_OPEN_SUPPORT_REQUESTS} requests waiting for an answer; send another once one is answered.`,
        );
      }
      return reply.code(201).send({ Item: created });
    },
  );

  api.get(
    PATH,
    { config: { auth: 'user' }, schema: { response: { 200: supportRequestsResponseSchema } } },
    async (request) => ({
      Items: await listOwnSupportRequests(db, request.principal.user.id, LIST_LIMIT),
    }),
  );

  api.get(
    ADMIN_PATH,
    {
      config: { auth: 'admin' },
      schema: {
        querystring: supportInboxQuerySchema,
        response: { 200: supportRequestsResponseSchema },
      },
    },
    async (request) => ({ Items: await listSupportInbox(db, request.query.status, LIST_LIMIT) }),
  );

  api.post(
    `${ADMIN_PATH}/:id/reply`,
    {
      bodyLimit: BODY_LIMIT,
      config: { auth: 'admin' },
      schema: {
        params: z.strictObject({ id: z.string().max(100) }),
        body: supportReplySchema,
        response: { 200: supportRequestResponseSchema },
      },
    },
    async (request) => {
      const at = now();
      const answered = await answerSupportRequest(db, request.params.id, {
        ...request.body,
        by: request.principal.user.id,
        now: at,
      });
      if (!answered) throw notFound('No support request has this id; list them with GET /support.');
      const { userId, ...item } = answered;
      if (item.replyChannel === 'sms') {
        const [driver] = await db.query<{ preferred_language: string }>(
          'SELECT preferred_language FROM users WHERE id = $1',
          [userId],
        );
        await deps.enqueue({
          createdBy: userId,
          // One text per answer: an answer corrected later is a new text.
          key: `support:${item.id}:${at}`,
          to: item.phoneNumber,
          body: supportReplyText(item.reply ?? '', {
            language: driver?.preferred_language ?? 'en',
            baseUrl,
          }),
          // The driver asked for this answer: it goes at any hour.
          quietHours: false,
          channel: 'sms',
        });
      }
      return { Item: item };
    },
  );
}
