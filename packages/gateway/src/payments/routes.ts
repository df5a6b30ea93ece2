// The payment endpoints: price, pay, own payments, the admin billing report, the sandbox's
// confirmation of a processing payment and Stripe's webhook.
import {
  billingQuerySchema,
  billingResponseSchema,
  confirmSandboxPaymentRequestSchema,
  createPaymentRequestSchema,
  endOfDay,
  paymentItemResponseSchema,
  paymentResponseSchema,
  paymentsResponseSchema,
  priceResponseSchema,
  startOfDay,
} from '@blockcatch/sdk';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ApiError, invalid, notFound, quote } from '../http/errors.js';
import {
  IDEMPOTENCY_HEADER,
  idempotentHeadersSchema,
  REPLAYED_HEADER,
} from '../http/idempotency.js';
import type { Db } from '../storage/db.js';
import {
  findPayment,
  listPaymentsOfUser,
  listSucceededPayments,
  toPayment,
} from '../storage/payments.js';
import { billingReport, daysBetween, MAX_REPORT_DAYS } from './billing-report.js';
import type { SandboxProvider } from './sandbox-provider.js';
import type { PaymentService } from './service.js';
import type { StripeProvider } from './stripe-provider.js';

const paymentParamsSchema = z.strictObject({ id: z.string().min(1).max(100) });

export interface PaymentRouteDeps {
  db: Db;
  service: PaymentService;
  sandbox: SandboxProvider | null;
  stripe: StripeProvider | null;
}

export function registerPaymentRoutes(app: FastifyInstance, deps: PaymentRouteDeps): void {
  const { db, service } = deps;

  const api = app.withTypeProvider<ZodTypeProvider>();

  api.get(
    '/api/flex/v1/price',
    { config: { auth: 'public' }, schema: { response: { 200: priceResponseSchema } } },
    async () => service.price(),
  );

  api.post(
    '/api/flex/v1/payments',
    {
      config: { auth: 'user' },
      schema: {
        headers: idempotentHeadersSchema,
        // { weeks, card } for the sandbox, { weeks, paymentMethodId } for Stripe.
        body: createPaymentRequestSchema,
        response: { 201: paymentResponseSchema, 202: paymentResponseSchema },
      },
    },
    async (request, reply) => {
      const key = request.headers[IDEMPOTENCY_HEADER];
      const result = await service.pay(request.principal.user, key, request.body);
      if (result.replayed) reply.header(REPLAYED_HEADER, 'true');
      // The stored answer: 201 or 202 with the payment, or a failure body with its own status,
      // which the plain reply type lets through.
      return (reply as FastifyReply)
        .status(result.status)
        .header('cache-control', 'no-store')
        .send(result.body);
    },
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
      const principal = request.principal;
      const { id } = request.params;
      const payment = await findPayment(db, id);
      // Someone else's payment answers as missing: ids must not reveal who paid.
      if (!payment || payment.user_id !== principal.user.id) {
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

  const sandbox = deps.sandbox;
  if (sandbox) {
    api.post(
      '/api/sandbox/payments/:id/confirm',
      {
        config: { auth: 'admin' },
        schema: {
          params: paymentParamsSchema,
          body: confirmSandboxPaymentRequestSchema,
          response: { 200: paymentItemResponseSchema },
        },
      },
      async (request) => {
        const { id } = request.params;
        const { outcome } = request.body;
        const payment = await findPayment(db, id);
        if (!payment) throw notFound(`No payment ${quote(id)}.`);
        if (payment.status !== 'processing' || !payment.provider_ref) {
          throw new ApiError(
            409,
            'payment_not_processing',
            `Payment ${id} is ${payment.status}, not processing.`,
          );
        }
        await sandbox.settle(payment.provider_ref, outcome);
        const settled = await service.settle({
          paymentId: id,
          providerRef: payment.provider_ref,
          outcome,
        });
        if (!settled) throw notFound(`No payment ${quote(id)}.`);
        return { Item: toPayment(settled) };
      },
    );
  }

  const stripe = deps.stripe;
  if (stripe) {
    // Its own scope: only this route takes JSON as raw bytes, which the signature is computed over.
    app.register(async (scope) => {
      scope.removeContentTypeParser('application/json');
      scope.addContentTypeParser(
        'application/json',
        { parseAs: 'buffer' },
        (_request, body, done) => done(null, body),
      );
      // Public: Stripe signs its requests, checked below.
      scope.post('/api/webhooks/stripe', { config: { auth: 'public' } }, async (request, reply) => {
        const signature = request.headers['stripe-signature'];
        if (typeof signature !== 'string' || !Buffer.isBuffer(request.body)) {
          throw invalid(
            'stripe-signature',
            'the Stripe-Signature header and a JSON body are required.',
          );
        }
        let settlement: ReturnType<StripeProvider['readWebhook']>;
        try {
          settlement = stripe.readWebhook(request.body, signature);
        } catch {
          throw new ApiError(
            400,
            'bad_signature',
            'Stripe-Signature does not match this payload.',
            'stripe-signature',
          );
        }
        // An event for a payment we do not know is acknowledged, or Stripe would resend it for days.
        if (settlement) await service.settle(settlement);
        return reply.send({ received: true });
      });
    });
  }
}

function isTimeZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}
