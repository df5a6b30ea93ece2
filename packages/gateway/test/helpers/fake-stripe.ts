// A local stand-in for Stripe's PaymentIntents endpoint on 127.0.0.1: checks the secret key and the
// Idempotency-Key, answers each key once (replaying its first answer, as Stripe does), and decides
// the outcome from the payment method the way Stripe's test payment methods do.
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';

export interface FakeStripe {
  url: string;
  /** PaymentIntents created (not replays). */
  created: Array<{ id: string; idempotencyKey: string; params: URLSearchParams }>;
  /** Requests answered, replays included. */
  requests: number;
  /**
   * The next this many requests are carried out and then the connection is cut before the answer:
   * the caller cannot know whether it was charged.
   */
  dropAfterCharge: number;
  close(): Promise<void>;
}

export async function startFakeStripe(secretKey: string): Promise<FakeStripe> {
  const answers = new Map<string, { status: number; body: string }>();
  const fake: Omit<FakeStripe, 'url' | 'close'> = { created: [], requests: 0, dropAfterCharge: 0 };
  const server: Server = createServer(async (req, res) => {
    fake.requests += 1;
    const text = await readBody(req);
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    };
    if (req.headers.authorization !== `Bearer ${secretKey}`) {
      return send(401, {
        error: { type: 'invalid_request_error', message: 'Invalid API Key provided' },
      });
    }
    if (req.method !== 'POST' || req.url !== '/v1/payment_intents') {
      return send(404, {
        error: { type: 'invalid_request_error', message: `No route ${req.url}` },
      });
    }
    const key = req.headers['idempotency-key'];
    if (typeof key !== 'string' || key === '') {
      return send(400, {
        error: { type: 'invalid_request_error', message: 'Idempotency-Key required by this fake' },
      });
    }
    const previous = answers.get(key);
    if (previous && fake.dropAfterCharge > 0) {
      fake.dropAfterCharge -= 1;
      return req.socket.destroy();
    }
    if (previous) {
      res.writeHead(previous.status, {
        'content-type': 'application/json',
        'idempotent-replayed': 'true',
      });
      return res.end(previous.body);
    }
    const params = new URLSearchParams(text);
    const id = `pi_${randomBytes(8).toString('hex')}`;
    fake.created.push({ id, idempotencyKey: key, params });
    const method = params.get('payment_method') ?? '';
    const metadata: Record<string, string> = {};
    for (const [k, v] of params) {
      const m = /^metadata\[(.+)\]$/.exec(k);
      if (m?.[1]) metadata[m[1]] = v;
    }
    const intent = (status: string) => ({
      id,
      object: 'payment_intent',
      amount: Number(params.get('amount')),
      currency: params.get('currency'),
      status,
      metadata,
      payment_method: {
        id: method,
        object: 'payment_method',
        type: 'card',
        card: { brand: 'visa', last4: method === 'pm_card_visa' ? '4242' : '0002' },
      },
      last_payment_error: null,
    });
    let answer: { status: number; body: unknown };
    if (method === 'pm_card_chargeDeclined') {
      answer = {
        status: 402,
        body: {
          error: {
            type: 'card_error',
            code: 'card_declined',
            decline_code: 'generic_decline',
            message: 'Your card was declined.',
            payment_intent: intent('requires_payment_method'),
          },
        },
      };
    } else if (method === 'pm_card_processing') {
      answer = { status: 200, body: intent('processing') };
    } else {
      answer = { status: 200, body: intent('succeeded') };
    }
    const body = JSON.stringify(answer.body);
    answers.set(key, { status: answer.status, body });
    if (fake.dropAfterCharge > 0) {
      fake.dropAfterCharge -= 1;
      return req.socket.destroy();
    }
    res.writeHead(answer.status, { 'content-type': 'application/json' }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return Object.assign(fake, {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  });
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}
