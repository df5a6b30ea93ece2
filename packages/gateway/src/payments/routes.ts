// The payment endpoints: the price, a hosted checkout and its state, my billing (cancel, resume,
// the processor's portal), my payments, the admin billing report, overview and refunds, and the
// processor's webhook. No body here carries card data: every body schema is strict, and a card
// field is refused by name before anything else reads it.
import {
  billingOverviewSchema,
  billingQuerySchema,
  billingResponseSchema,
  billingSummarySchema,
  checkoutRequestSchema,
  checkoutResponseSchema,
  endOfDay,
  paymentItemResponseSchema,
  paymentsResponseSchema,
  portalResponseSchema,
  priceResponseSchema,
  refundRequestSchema,
  refundResponseSchema,
  startOfDay,
  subscriptionUpdateRequestSchema,
} from '@blockcatch/sdk';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { GatewayConfig } from '../config.js';
import { noteAudit } from '../http/audit.js';
import { invalid, notFound, quote } from '../http/errors.js';
import { IDEMPOTENCY_HEADER, idempotentHeadersSchema } from '../http/idempotency.js';
import { parseJsonBody } from '../http/json-body.js';
import { toCheckout } from '../storage/billing.js';
import type { Db } from '../storage/db.js';
import {
  findPayment,
  listPaymentsOfUser,
  listSucceededPayments,
  toPayment,
} from '../storage/payments.js';
import { billingOverview } from './billing-overview.js';
import { billingReport, daysBetween, MAX_REPORT_DAYS } from './billing-report.js';
import type { PaymentService } from './service.js';

const paymentParamsSchema = z.strictObject({ id: z.string().min(1).max(100) });
const localeQuerySchema = z.strictObject({ locale: z.enum(['en', 'es']).default('en') });

/** Field names that only card data goes by: refused wherever they appear in a body. */
const CARD_FIELDS =
  /^(card|cards|number|cardNumber|card_number|cvc|cvv|exp_?month|expMonth|exp_?year|expYear|pan)$/i;

export interface PaymentRouteDeps {
  db: Db;
  config: GatewayConfig;
  service: PaymentService;
  now: () => number;
}

export function registerPaymentRoutes(app: FastifyInstance, deps: PaymentRouteDeps): void {
  const { db, service, config } = deps;
  const api = app.withTypeProvider<ZodTypeProvider>();
  // Before validation: a card in a body is named as such, and never echoed.
  const refuseCards = async (request: FastifyRequest) => {
    const field = cardField(request.body);
    if (field !== null) {
      throw invalid(
        field,
        'card details are typed on the card processor’s checkout page, never sent to BlockCatch; remove them and open a checkout.',
      );
    }
  };

  /** Where the processor sends the driver back: the app that asked, if it is one of ours. */
  const appBase = (request: FastifyRequest) => {
    const own = `${request.protocol}://${request.host}`;
    const origin = request.headers.origin;
    if (typeof origin === 'string' && (origin === own || config.corsOrigins.includes(origin))) {
      return origin;
    }
    return config.publicUrl ?? own;
  };

  api.get(
    '/api/flex/v1/price',
    { config: { auth: 'public' }, schema: { response: { 200: priceResponseSchema } } },
    async () => service.price(),
  );

  api.post(
    '/api/flex/v1/checkout',
    {
      config: { auth: 'user' },
      preValidation: refuseCards,
      schema: {
        headers: idempotentHeadersSchema,
        body: checkoutRequestSchema,
        response: { 201: checkoutResponseSchema },
      },
    },
    async (request, reply) => {
      const checkout = await service.checkout(
        request.principal.user,
        request.headers[IDEMPOTENCY_HEADER],
        request.body,
        appBase(request),
      );
      return reply
        .status(201)
        .header('cache-control', 'no-store')
        .send({ Item: toCheckout(checkout) });
    },
  );

  api.get(
    '/api/flex/v1/checkout/:id',
    {
      config: { auth: 'user' },
      schema: { params: paymentParamsSchema, response: { 200: checkoutResponseSchema } },
    },
    async (request) => ({
      Item: toCheckout(await service.getCheckout(request.principal.user, request.params.id)),
    }),
  );

  api.get(
    '/api/flex/v1/billing',
    { config: { auth: 'user' }, schema: { response: { 200: billingSummarySchema } } },
    async (request) => service.summary(request.principal.user),
  );

  api.post(
    '/api/flex/v1/billing/subscription',
    {
      config: { auth: 'user' },
      preValidation: refuseCards,
      schema: { body: subscriptionUpdateRequestSchema, response: { 200: billingSummarySchema } },
    },
    async (request) =>
      service.setCancelAtPeriodEnd(request.principal.user, request.body.cancelAtPeriodEnd),
  );

  api.post(
    '/api/flex/v1/billing/portal',
    {
      config: { auth: 'user' },
      preValidation: refuseCards,
      schema: {
        querystring: localeQuerySchema,
        body: z.strictObject({}),
        response: { 200: portalResponseSchema },
      },
    },
    async (request) => ({
      url: await service.portal(request.principal.user, appBase(request), request.query.locale),
    }),
  );

  api.get(
    '/api/flex/v1/payments',
    { config: { auth: 'user' }, schema: { response: { 200: paymentsResponseSchema } } },
    async (request) => ({
      Items: (await listPaymentsOfUser(db, request.principal.user.id)).map(toPayment),
    }),
  );

  api.get(
    '/api/flex/v1/payments/:id',
    {
      config: { auth: 'user' },
      schema: { params: paymentParamsSchema, response: { 200: paymentItemResponseSchema } },
    },
    async (request) => {
      const { id } = request.params;
      const payment = await findPayment(db, id);
      // Someone else's payment answers as missing: ids must not reveal who paid.
      if (!payment || payment.user_id !== request.principal.user.id) {
        throw notFound(`No payment ${quote(id)} of yours.`);
      }
      return { Item: toPayment(payment) };
    },
  );

  api.get(
    '/api/flex/v1/admin/billing',
    {
      config: { auth: 'billing' },
      schema: { querystring: billingQuerySchema, response: { 200: billingResponseSchema } },
    },
    async (request) => {
      const { query } = request;
      const to = query.to ?? query.from;
      if (to < query.from) throw invalid('to', `${to} is before from (${query.from}); swap them.`);
      if (daysBetween(query.from, to).length > MAX_REPORT_DAYS) {
        throw invalid('to', `a report covers at most ${MAX_REPORT_DAYS} days; narrow the range.`);
      }
      if (!isTimeZone(query.timeZone)) {
        throw invalid(
          'timeZone',
          `${quote(query.timeZone)} is not an IANA time zone; use e.g. America/New_York.`,
        );
      }
      const payments = await listSucceededPayments(
        db,
        startOfDay(query.from, query.timeZone),
        endOfDay(to, query.timeZone),
      );
      return billingReport(payments, { from: query.from, to, timeZone: query.timeZone });
    },
  );

  api.get(
    '/api/flex/v1/admin/billing/overview',
    { config: { auth: 'billing' }, schema: { response: { 200: billingOverviewSchema } } },
    async () => billingOverview(db, { weeklyPriceCents: config.weeklyPriceCents, now: deps.now() }),
  );

  api.post(
    '/api/flex/v1/admin/billing/refunds',
    {
      config: { auth: 'billing', audit: 'refund.create' },
      preValidation: refuseCards,
      schema: { body: refundRequestSchema, response: { 201: refundResponseSchema } },
    },
    async (request, reply) => {
      const admin = request.principal.user;
      const refund = await service.refund(admin, request.body);
      noteAudit(request, {
        target: refund.payment.id,
        detail: {
          refundId: refund.id,
          weeks: refund.weeks,
          amountCents: refund.amountCents,
          reason: request.body.reason,
        },
      });
      const owner = await db.query<{ name: string; phone_number: string }>(
        'SELECT name, phone_number FROM users WHERE id = $1',
        [refund.payment.user_id],
      );
      return reply.status(201).send({
        Item: {
          id: refund.id,
          paymentId: refund.payment.id,
          weeks: refund.weeks,
          amountCents: refund.amountCents,
          reason: request.body.reason,
          refundedBy: admin.name,
          createdTimestamp: deps.now(),
          name: owner[0]?.name ?? '',
          phoneNumber: owner[0]?.phone_number ?? '',
        },
      });
    },
  );

  // The processor's webhook, in its own scope: only this route takes JSON as raw bytes, which the
  // signature is computed over.
  const path = `/api/webhooks/${service.provider.name}`;
  app.register(async (scope) => {
    scope.removeContentTypeParser('application/json');
    scope.addContentTypeParser(
      'application/json',
      { parseAs: 'buffer', bodyLimit: 512 * 1024 },
      (_request, body, done) => done(null, body),
    );
    // Public: the processor signs its requests, checked by the service.
    scope.post(
      path,
      {
        config: { auth: 'public' },
        schema: { response: { 200: z.object({ received: z.literal(true) }) } },
      },
      async (request, reply) => {
        const signature = request.headers['stripe-signature'];
        // The same refusals as every JSON body (depth, NUL, lone surrogates, __proto__), before
        // anything else reads it; the signature is then checked over the untouched bytes.
        if (Buffer.isBuffer(request.body)) parseJsonBody(request.body.toString('utf8'));
        if (
          typeof signature !== 'string' ||
          signature.length > 2000 ||
          !Buffer.isBuffer(request.body)
        ) {
          throw invalid(
            'stripe-signature',
            'the Stripe-Signature header and a JSON body are required.',
          );
        }
        await service.receive(request.body, signature);
        return reply.send({ received: true });
      },
    );
  });
}

/** The path of the first card-only field in a body, or null. */
function cardField(body: unknown, path = '', depth = 0): string | null {
  if (body === null || typeof body !== 'object' || depth > 4) return null;
  for (const [key, value] of Object.entries(body as Record<string, unknown>)) {
    const here = path ? `${path}.${key}` : key;
    if (CARD_FIELDS.test(key)) return here;
    const nested = cardField(value, here, depth + 1);
    if (nested) return nested;
  }
  return null;
}

function isTimeZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}
