// A local Stripe-shaped server on 127.0.0.1 for stripe-node: customers, Checkout Sessions, the
// Customer Portal, subscription updates, refunds and balance credit, each POST answered once per
// Idempotency-Key (a replay gets the first answer, as Stripe does). Like Stripe it sends signed
// webhook events to the gateway: when a test "pays" a session (the driver on Stripe's page), when
// its test clock passes a renewal, and after refunds and subscription changes.
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import Stripe from 'stripe';

const WEEK_S = 7 * 24 * 60 * 60;

type Params = Record<string, string>;

export interface FakeSession {
  id: string;
  params: Params;
  customer: string;
  paymentIntent: string;
}

export interface FakeSubscription {
  id: string;
  customer: string;
  metadata: Record<string, string>;
  amount: number;
  status: 'active' | 'past_due' | 'canceled';
  cancelAtPeriodEnd: boolean;
  periodEnd: number;
  cardFails: boolean;
  attempts: number;
}

export interface FakeStripe {
  url: string;
  /** Where events go; set once the gateway listens. */
  webhookUrl: string;
  requests: Array<{ method: string; path: string; params: Params; idempotencyKey: string | null }>;
  sessions: Map<string, FakeSession>;
  subscriptions: Map<string, FakeSubscription>;
  refunds: Params[];
  /** The next request is answered this way instead (a processor error, or a cut connection). */
  failNext: { status: number; type: string; code?: string; message: string } | 'drop' | null;
  /** How many requests in a row get `failNext` (stripe-node retries a 5xx or a cut connection). */
  failTimes: number;
  /** The driver pays the session on Stripe's page: Stripe's events follow, in Stripe's order. */
  pay(sessionId: string, outcome?: 'succeeded' | 'declined'): Promise<void>;
  /** Stripe's test clock: bills every subscription whose period ended by then. */
  advance(nowMs: number): Promise<void>;
  dispute(paymentIntent: string): Promise<void>;
  /** Signs and sends one event; answers the gateway's status. Returns the payload too. */
  send(
    type: string,
    object: Record<string, unknown>,
    options?: { id?: string; timestamp?: number },
  ): Promise<{ status: number; payload: string }>;
  close(): Promise<void>;
}

export async function startFakeStripe(options: {
  secretKey: string;
  webhookSecret: string;
  now: () => number;
}): Promise<FakeStripe> {
  const answers = new Map<string, { status: number; body: string }>();
  const charges = new Map<string, { id: string; amount: number; refunded: number }>();
  /** Which PaymentIntent paid each invoice: Stripe's invoice events leave it out by default. */
  const invoiceIntents = new Map<string, string>();
  const id = (prefix: string) => `${prefix}_${randomBytes(8).toString('hex')}`;
  const seconds = () => Math.floor(options.now() / 1000);

  const fake: Omit<FakeStripe, 'url' | 'close'> = {
    webhookUrl: '',
    requests: [],
    sessions: new Map(),
    subscriptions: new Map(),
    refunds: [],
    failNext: null,
    failTimes: 1,
    async send(type, object, opts = {}) {
      const payload = JSON.stringify({
        id: opts.id ?? id('evt'),
        object: 'event',
        type,
        api_version: Stripe.API_VERSION,
        created: seconds(),
        data: { object },
      });
      const signature = Stripe.webhooks.generateTestHeaderString({
        payload,
        secret: options.webhookSecret,
        timestamp: opts.timestamp ?? seconds(),
      });
      const response = await fetch(fake.webhookUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'stripe-signature': signature },
        body: payload,
      });
      await response.arrayBuffer();
      return { status: response.status, payload };
    },
    async pay(sessionId, outcome = 'succeeded') {
      const s = fake.sessions.get(sessionId);
      if (!s) throw new Error(`no session ${sessionId}`);
      const metadata = metadataOf(s.params, 'metadata');
      const amount =
        Number(s.params['line_items[0][price_data][unit_amount]']) *
        Number(s.params['line_items[0][quantity]']);
      if (outcome === 'declined') {
        await fake.send('payment_intent.payment_failed', {
          id: s.paymentIntent,
          object: 'payment_intent',
          amount,
          metadata: metadataOf(s.params, 'payment_intent_data[metadata]'),
          last_payment_error: {
            type: 'card_error',
            code: 'card_declined',
            decline_code: 'generic_decline',
          },
        });
        return;
      }
      if (s.params.mode === 'payment') {
        charges.set(s.paymentIntent, { id: id('ch'), amount, refunded: 0 });
        await fake.send('checkout.session.completed', {
          id: s.id,
          object: 'checkout.session',
          mode: 'payment',
          payment_status: 'paid',
          client_reference_id: s.params.client_reference_id,
          customer: s.customer,
          subscription: null,
          payment_intent: s.paymentIntent,
          amount_total: amount,
          metadata,
        });
        await fake.send('payment_intent.succeeded', {
          id: s.paymentIntent,
          object: 'payment_intent',
          amount,
          metadata: metadataOf(s.params, 'payment_intent_data[metadata]'),
          latest_charge: {
            id: charges.get(s.paymentIntent)?.id,
            payment_method_details: { card: { last4: '4242' } },
            receipt_url: 'https://pay.stripe.com/receipts/test',
          },
        });
        return;
      }
      const sub: FakeSubscription = {
        id: id('sub'),
        customer: s.customer,
        metadata: metadataOf(s.params, 'subscription_data[metadata]'),
        amount,
        status: 'active',
        cancelAtPeriodEnd: false,
        periodEnd: seconds(),
        cardFails: false,
        attempts: 0,
      };
      fake.subscriptions.set(sub.id, sub);
      // Stripe does not promise an order: the first invoice is paid before the session completes.
      await bill(sub);
      await fake.send('checkout.session.completed', {
        id: s.id,
        object: 'checkout.session',
        mode: 'subscription',
        payment_status: 'paid',
        client_reference_id: s.params.client_reference_id,
        customer: s.customer,
        subscription: sub.id,
        payment_intent: null,
        amount_total: amount,
        metadata,
      });
    },
    async advance(nowMs) {
      for (const sub of fake.subscriptions.values()) {
        while (sub.status !== 'canceled' && sub.periodEnd * 1000 <= nowMs) {
          if (sub.cancelAtPeriodEnd) {
            sub.status = 'canceled';
            await fake.send('customer.subscription.deleted', subscriptionObject(sub));
            break;
          }
          if (!(await bill(sub))) break;
        }
      }
    },
    async dispute(paymentIntent) {
      const charge = charges.get(paymentIntent);
      await fake.send('charge.dispute.created', {
        id: id('dp'),
        object: 'dispute',
        charge: charge?.id,
        payment_intent: paymentIntent,
        amount: charge?.amount ?? 0,
        reason: 'fraudulent',
      });
    },
  };

  function subscriptionObject(sub: FakeSubscription) {
    return {
      id: sub.id,
      object: 'subscription',
      customer: sub.customer,
      status: sub.status,
      cancel_at_period_end: sub.cancelAtPeriodEnd,
      metadata: sub.metadata,
      items: { object: 'list', data: [{ current_period_end: sub.periodEnd }] },
    };
  }

  /** One invoice for the next week; true when it was paid. */
  async function bill(sub: FakeSubscription): Promise<boolean> {
    const invoice = id('in');
    const intent = id('pi');
    sub.attempts += 1;
    const base = {
      id: invoice,
      object: 'invoice',
      customer: sub.customer,
      total: sub.amount,
      hosted_invoice_url: `https://invoice.stripe.com/i/${invoice}`,
      parent: {
        type: 'subscription_details',
        subscription_details: { subscription: sub.id, metadata: sub.metadata },
      },
    };
    invoiceIntents.set(invoice, intent);
    if (sub.cardFails) {
      sub.status = 'past_due';
      await fake.send('invoice.payment_failed', {
        ...base,
        amount_paid: 0,
        attempt_count: sub.attempts,
        next_payment_attempt: seconds() + 86_400,
      });
      return false;
    }
    charges.set(intent, { id: id('ch'), amount: sub.amount, refunded: 0 });
    const period = { start: sub.periodEnd, end: sub.periodEnd + WEEK_S };
    sub.periodEnd += WEEK_S;
    sub.status = 'active';
    sub.attempts = 0;
    await fake.send('invoice.paid', {
      ...base,
      amount_paid: sub.amount,
      attempt_count: 1,
      next_payment_attempt: null,
      lines: { object: 'list', data: [{ period }] },
    });
    return true;
  }

  const server: Server = createServer(async (req, res) => {
    const text = await readBody(req);
    const send = (status: number, body: unknown) =>
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    if (req.headers.authorization !== `Bearer ${options.secretKey}`) {
      return send(401, {
        error: { type: 'invalid_request_error', message: 'Invalid API Key provided' },
      });
    }
    const path = (req.url ?? '').split('?')[0] ?? '';
    const params = Object.fromEntries(new URLSearchParams(text));
    const key =
      typeof req.headers['idempotency-key'] === 'string' ? req.headers['idempotency-key'] : null;
    fake.requests.push({ method: req.method ?? '', path, params, idempotencyKey: key });
    if (fake.failNext) {
      const failure = fake.failNext;
      fake.failTimes -= 1;
      if (fake.failTimes <= 0) {
        fake.failNext = null;
        fake.failTimes = 1;
      }
      if (failure === 'drop') return req.socket.destroy();
      return send(failure.status, {
        error: { type: failure.type, code: failure.code, message: failure.message },
      });
    }
    const previous = key ? answers.get(`${path} ${key}`) : undefined;
    if (previous) {
      res.writeHead(previous.status, {
        'content-type': 'application/json',
        'idempotent-replayed': 'true',
      });
      return res.end(previous.body);
    }
    const answer = (status: number, body: unknown) => {
      if (key) answers.set(`${path} ${key}`, { status, body: JSON.stringify(body) });
      send(status, body);
    };
    const subscriptionPath = /^\/v1\/subscriptions\/(\w+)$/.exec(path);
    const balancePath = /^\/v1\/customers\/(\w+)\/balance_transactions$/.exec(path);
    if (req.method === 'GET' && path === '/v1/invoice_payments') {
      const invoice = new URL(req.url ?? '', 'http://x').searchParams.get('invoice') ?? '';
      const intent = invoiceIntents.get(invoice);
      return send(200, {
        object: 'list',
        has_more: false,
        url: '/v1/invoice_payments',
        data: intent
          ? [
              {
                id: id('inpay'),
                object: 'invoice_payment',
                invoice,
                status: 'paid',
                payment: { type: 'payment_intent', payment_intent: intent },
              },
            ]
          : [],
      });
    }
    if (req.method === 'POST' && path === '/v1/customers') {
      return answer(200, { id: id('cus'), object: 'customer', name: params.name });
    }
    if (req.method === 'POST' && path === '/v1/checkout/sessions') {
      const session: FakeSession = {
        id: id('cs_test'),
        params,
        customer: params.customer ?? '',
        paymentIntent: id('pi'),
      };
      fake.sessions.set(session.id, session);
      return answer(200, {
        id: session.id,
        object: 'checkout.session',
        mode: params.mode,
        url: `https://checkout.stripe.com/c/pay/${session.id}`,
        status: 'open',
      });
    }
    if (req.method === 'POST' && path === '/v1/billing_portal/sessions') {
      return answer(200, {
        id: id('bps'),
        object: 'billing_portal.session',
        url: `https://billing.stripe.com/p/session/${id('test')}`,
        return_url: params.return_url,
      });
    }
    if (req.method === 'POST' && subscriptionPath) {
      const sub = fake.subscriptions.get(subscriptionPath[1] ?? '');
      if (!sub)
        return answer(404, {
          error: {
            type: 'invalid_request_error',
            code: 'resource_missing',
            message: `No such subscription: '${subscriptionPath[1]}'`,
          },
        });
      sub.cancelAtPeriodEnd = params.cancel_at_period_end === 'true';
      const object = subscriptionObject(sub);
      answer(200, object);
      await fake.send('customer.subscription.updated', object);
      return;
    }
    if (req.method === 'POST' && path === '/v1/refunds') {
      const charge = charges.get(params.payment_intent ?? '');
      const amount = Number(params.amount);
      if (!charge || charge.refunded + amount > charge.amount) {
        return answer(400, {
          error: {
            type: 'invalid_request_error',
            code: 'charge_already_refunded',
            message: 'Charge has already been refunded.',
          },
        });
      }
      charge.refunded += amount;
      fake.refunds.push(params);
      answer(200, {
        id: id('re'),
        object: 'refund',
        amount,
        payment_intent: params.payment_intent,
        status: 'succeeded',
      });
      await fake.send('charge.refunded', {
        id: charge.id,
        object: 'charge',
        payment_intent: params.payment_intent,
        amount: charge.amount,
        amount_refunded: charge.refunded,
      });
      return;
    }
    if (req.method === 'POST' && balancePath) {
      return answer(200, {
        id: id('cbtxn'),
        object: 'customer_balance_transaction',
        amount: Number(params.amount),
        customer: balancePath[1],
      });
    }
    return send(404, {
      error: { type: 'invalid_request_error', message: `No route ${req.method} ${path}` },
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return Object.assign(fake, {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  });
}

function metadataOf(params: Params, prefix: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(params)) {
    if (key.startsWith(`${prefix}[`) && key.endsWith(']'))
      out[key.slice(prefix.length + 1, -1)] = value;
  }
  return out;
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}
