// Weekly payments: the provider the settings choose (sandbox test cards or Stripe), the payment
// service, its routes, and the sweep that takes good standing from drivers whose time ran out.
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { GatewayConfig } from '../config.js';
import type { Db } from '../storage/db.js';
import type { PaymentRecord } from '../storage/payments.js';
import { registerPaymentRoutes } from './routes.js';
import { createSandboxProvider, type SandboxProvider } from './sandbox-provider.js';
import { createPaymentService, type PaymentService } from './service.js';
import { sweepLapsedStanding } from './settle.js';
import { createStripeProvider, type StripeProvider } from './stripe-provider.js';

export interface Payments {
  service: PaymentService;
  registerRoutes(app: FastifyInstance): void;
  start(): void;
  stop(): void;
  /** Runs the good-standing sweep now, as the timer would; answers how many drivers lost it. */
  sweepNow(): Promise<number>;
}

export function createPayments(deps: {
  db: Db;
  config: GatewayConfig;
  log: FastifyBaseLogger;
  /** A payment failed: the driver gets an alert. */
  onPaymentFailed?: (payment: PaymentRecord) => void;
}): Payments {
  const { db, config, log } = deps;
  let sandbox: SandboxProvider | null = null;
  let stripe: StripeProvider | null = null;
  if (config.paymentProvider === 'stripe') {
    const { secretKey, webhookSecret, baseUrl } = config.stripe;
    // parseConfig already refused a Stripe provider without both secrets.
    stripe = createStripeProvider({
      secretKey: secretKey ?? '',
      webhookSecret: webhookSecret ?? '',
      baseUrl,
    });
  } else {
    sandbox = createSandboxProvider(db);
  }
  const provider = stripe ?? sandbox;
  if (!provider) throw new Error('no payment provider');
  const service = createPaymentService({
    db,
    config,
    provider,
    ...(deps.onPaymentFailed ? { onFailed: deps.onPaymentFailed } : {}),
  });
  let timer: NodeJS.Timeout | null = null;
  return {
    service,
    registerRoutes(app) {
      registerPaymentRoutes(app, { db, service, sandbox, stripe });
    },
    start() {
      if (config.goodStandingSweepMs === 0 || timer) return;
      timer = setInterval(() => {
        sweepLapsedStanding(db).catch((error: unknown) =>
          log.error({ err: error }, 'good-standing sweep failed'),
        );
      }, config.goodStandingSweepMs);
      timer.unref();
    },
    stop() {
      if (timer) clearInterval(timer);
      timer = null;
    },
    sweepNow: () => sweepLapsedStanding(db),
  };
}
