// Weekly payments: the processor the settings choose (the sandbox's hosted test pages, or Stripe),
// the payment service and its routes, the processor's webhook, and the billing sweep: the
// sandbox's billing clock (renewals, dunning retries, ends at the period end), referral credit
// owed to the processor, good standing taken from drivers whose paid time ran out, and the weekly
// credit for lost hours (lost-hours.ts).
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { GatewayConfig } from '../config.js';
import type { Db } from '../storage/db.js';
import type { PaymentRecord } from '../storage/payments.js';
import { creditLostHours } from './lost-hours.js';
import { registerPaymentRoutes } from './routes.js';
import { registerSandboxPages } from './sandbox-pages.js';
import { createSandboxProcessor, type SandboxProcessor } from './sandbox-provider.js';
import { createPaymentService, type PaymentService } from './service.js';
import { sweepLapsedStanding } from './settle.js';
import { createStripeProvider } from './stripe-provider.js';

export interface Payments {
  service: PaymentService;
  /** The sandbox processor, when it is the provider (tests drive its clock and disputes). */
  sandbox: SandboxProcessor | null;
  registerRoutes(app: FastifyInstance): void;
  start(): void;
  stop(): void;
  /**
   * Runs the billing sweep now, as the timer would (crediting lost hours whatever the hour);
   * answers how many drivers lost standing.
   */
  sweepNow(): Promise<number>;
}

export function createPayments(deps: {
  db: Db;
  config: GatewayConfig;
  log: FastifyBaseLogger;
  /** The clock billing runs by (tests move it a week ahead); Date.now unless told. */
  now?: () => number;
  /** A renewal failed: the driver gets an alert. */
  onPaymentFailed?: (payment: PaymentRecord) => void;
}): Payments {
  const { db, config, log } = deps;
  const now = deps.now ?? Date.now;
  const toleranceSeconds = config.paymentWebhookToleranceSeconds;
  const sandbox: SandboxProcessor | null =
    config.paymentProvider === 'stripe'
      ? null
      : createSandboxProcessor({ db, now, pagesBase: config.publicUrl ?? '', toleranceSeconds });
  const provider =
    sandbox ??
    createStripeProvider({
      // parseConfig already refused a Stripe provider without both secrets.
      secretKey: config.stripe.secretKey ?? '',
      webhookSecret: config.stripe.webhookSecret ?? '',
      baseUrl: config.stripe.baseUrl,
      toleranceSeconds,
    });
  const service = createPaymentService({
    db,
    config,
    provider,
    now,
    ...(deps.onPaymentFailed ? { onFailed: deps.onPaymentFailed } : {}),
  });

  /** The billing clock's hour the timer last credited lost hours in: once an hour is enough. */
  let creditedHour = Number.NaN;

  async function sweep(everything = false): Promise<number> {
    if (sandbox) {
      await sandbox.redeliver();
      await sandbox.advance(now());
    }
    await service.pushCredits();
    const hour = Math.floor(now() / 3_600_000);
    if (everything || hour !== creditedHour) {
      await creditLostHours(db, { now: now(), rules: config.lostHours });
      creditedHour = hour;
    }
    return sweepLapsedStanding(db, now());
  }

  let timer: NodeJS.Timeout | null = null;
  return {
    service,
    sandbox,
    registerRoutes(app) {
      registerPaymentRoutes(app, { db, config, service, now });
      if (sandbox) {
        const processor = sandbox;
        registerSandboxPages(app, { db, sandbox: processor, now });
        // The sandbox delivers its events to this gateway's webhook, through the whole pipeline.
        processor.setDelivery(async (payload, signature) => {
          const response = await app.inject({
            method: 'POST',
            url: '/api/webhooks/sandbox',
            headers: { 'content-type': 'application/json', 'stripe-signature': signature },
            payload,
          });
          if (response.statusCode !== 200) {
            log.warn({ status: response.statusCode }, 'sandbox webhook delivery refused');
          }
          return response.statusCode === 200;
        });
      }
    },
    start() {
      if (config.goodStandingSweepMs === 0 || timer) return;
      timer = setInterval(() => {
        sweep().catch((error: unknown) => log.error({ err: error }, 'billing sweep failed'));
      }, config.goodStandingSweepMs);
      timer.unref();
    },
    stop() {
      if (timer) clearInterval(timer);
      timer = null;
    },
    sweepNow: () => sweep(true),
  };
}
