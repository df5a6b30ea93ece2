// The gateway's settings, read once from flags and the environment and validated at the edge.
// Each setting is declared once, below: its field, bounds and default (the zod schema) and, where
// an operator sets it, its variable, flag and meaning (`.register(settings, …)`). The environment
// reader, the error lines, `--help` and the settings table in docs/operations.md
// (`npm run settings:docs`) all come from these declarations.
import {
  ConfigError,
  PRODUCT_TIME_ZONE,
  SANDBOX_CLIENT_ID,
  SANDBOX_USER_POOL_ID,
  withoutTrailingSlashes,
} from '@blockcatch/sdk';
import { z } from 'zod';

export interface SettingMeta {
  /** The environment variable that sets it. */
  env: string;
  /** Other variables read when `env` is unset (`PORT`). */
  also?: string[];
  /** The flag of `main.js` that sets it, overriding the variable. */
  flag?: string;
  /** What it does, for `--help` and docs/operations.md. */
  doc: string;
  /** The default in words, where the schema's own default says too little (or there is none). */
  defaultText?: string;
  /** How the text is read before the schema checks it: a comma list, `on`/`off`, or `name=value` pairs. */
  read?: 'list' | 'on-off' | 'pairs';
  /** How to put a bad value right, said instead of the schema's rule. */
  fix?: string;
}

/** The settings an operator sets, by their schema. */
const settings = z.registry<SettingMeta>();

const port = z.coerce.number().int().min(0).max(65535);
/** A fresh schema each time: each setting registers its own description on it. */
const optionalString = () => z.string().trim().min(1).optional();

export const configSchema = z.object({
  host: z.string().min(1).default('127.0.0.1').register(settings, {
    env: 'BLOCKCATCH_HOST',
    flag: '--host',
    doc: 'The address to listen on.',
    fix: 'use an address such as 127.0.0.1 or 0.0.0.0',
  }),
  port: port.default(8787).register(settings, {
    env: 'BLOCKCATCH_PORT',
    also: ['PORT'],
    flag: '--port',
    doc: 'The port to listen on (`PORT` also works); `0` picks a free one.',
    fix: 'use a whole number from 0 to 65535 (0 picks a free port)',
  }),
  listenBacklog: z.coerce.number().int().min(1).max(65_535).default(4096).register(settings, {
    env: 'BLOCKCATCH_LISTEN_BACKLOG',
    doc: "Connections the kernel holds for the gateway before it accepts them. Node's 511 drops part of a burst of new connections, which then wait a second to retry; the kernel caps it at `net.core.somaxconn`.",
  }),
  acceptDescriptors: z.coerce.number().int().min(1).max(256).default(64).register(settings, {
    env: 'BLOCKCATCH_ACCEPT_DESCRIPTORS',
    doc: 'Descriptors of the listening socket the gateway accepts on. Node 20 accepts one new connection per descriptor per turn of its event loop, and a busy turn takes milliseconds: with 64, a crowd of new connections is taken in tens of turns, not one turn each. A helper process makes the copies at start and exits; `1` listens without it.',
    fix: 'use a whole number from 1 to 256',
  }),
  dataDir: optionalString().register(settings, {
    env: 'BLOCKCATCH_DATA_DIR',
    flag: '--data-dir',
    doc: "PGlite's data folder, relative to the working directory; the gateway started by `main.js` always keeps its data on disk there. Only a gateway built in code without one (`buildGateway`, the tests) keeps it in memory.",
    defaultText: '`.blockcatch/data`',
  }),
  databaseUrl: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must start with postgres:// or postgresql://')
    .optional()
    .register(settings, {
      env: 'DATABASE_URL',
      doc: '`postgres://…` to use a PostgreSQL server.',
      defaultText: 'unset: PGlite',
    }),
  databaseSchema: optionalString().register(settings, {
    env: 'BLOCKCATCH_DATABASE_SCHEMA',
    doc: 'The PostgreSQL schema to work in.',
    defaultText: '`public`',
  }),
  webDir: optionalString().register(settings, {
    env: 'BLOCKCATCH_WEB_DIR',
    flag: '--web-dir',
    doc: 'The built web app to serve at `/`.',
    defaultText: '`web/dist` when built',
  }),
  seed: z.boolean().default(true),
  responseKey: optionalString().register(settings, {
    env: 'BLOCKCATCH_RESPONSE_KEY',
    doc: '32 bytes (base64 or hex): the user tables answer `{ encrypted }` (AES-256-GCM).',
  }),
  corsOrigins: z
    .array(z.url({ protocol: /^https?$/ }))
    .default(['http://localhost:5173', 'http://127.0.0.1:5173'])
    .register(settings, {
      env: 'BLOCKCATCH_CORS_ORIGINS',
      doc: 'Comma-separated origins allowed to call the API from a browser (GET, HEAD, POST, PUT, DELETE); never `null` or a reflected origin.',
      defaultText: 'the Vite dev server',
      read: 'list',
    }),
  publicUrl: z
    .url({ protocol: /^https?$/ })
    .transform(withoutTrailingSlashes)
    .optional()
    .register(settings, {
      env: 'BLOCKCATCH_PUBLIC_URL',
      doc: "The address the deployment is reached at (`https://api.example.com`): the tokens' issuer, and webhooks are verified against it plus the request path, since behind a proxy the Host header is not what the provider called. Every process must share it.",
      defaultText: "unset: the request's own URL",
    }),
  linkBaseUrl: z
    .url({ protocol: /^https?$/ })
    .transform(withoutTrailingSlashes)
    .optional()
    .register(settings, {
      env: 'BLOCKCATCH_LINK_BASE_URL',
      doc: 'The short-link address marketing SMS links go through (`https://bc.link`), which must reach this gateway: each URL in a marketing text becomes `<this>/l/<code>`, one per recipient, counted when opened. A short domain saves characters and segments.',
      defaultText: 'the public URL',
    }),
  webhookSecret: z
    .string()
    .min(16, 'must be at least 16 characters')
    .optional()
    .register(settings, {
      env: 'BLOCKCATCH_WEBHOOK_SECRET',
      doc: "The outbox provider's webhook key, at least 16 characters.",
      defaultText: 'unset: every outbox webhook is refused',
    }),
  redisUrl: z
    .string()
    .regex(/^rediss?:\/\//, 'must start with redis:// or rediss://')
    .optional()
    .register(settings, {
      env: 'REDIS_URL',
      doc: '`redis://…`: share the request counts through Redis; unset shares them through PostgreSQL (with `DATABASE_URL`), or keeps them in the process (PGlite, one process).',
    }),
  /** Requests per client address per minute on every route without a limit of its own. */
  rateLimit: z
    .object({
      perMinute: z.coerce.number().int().min(1).max(1_000_000).default(1000).register(settings, {
        env: 'BLOCKCATCH_RATE_LIMIT_PER_MINUTE',
        doc: "Requests per client address per minute on a route without its own `config.rateLimit`; the web app's files are not counted.",
      }),
      shareMs: z.coerce.number().int().min(10).max(10_000).default(100).register(settings, {
        env: 'BLOCKCATCH_RATE_LIMIT_SHARE_MS',
        doc: 'How often each process sends the requests it counted to Redis or PostgreSQL.',
      }),
    })
    .prefault({}),
  metricsToken: z
    .string()
    .min(16, 'must be at least 16 characters')
    .max(256)
    .regex(/^[\x21-\x7e]+$/, 'must be printable ASCII without spaces')
    .optional()
    .register(settings, {
      env: 'BLOCKCATCH_METRICS_TOKEN',
      doc: '16–256 printable characters: opens `GET /metrics` to `Authorization: Bearer <token>` (see Metrics).',
      defaultText: 'unset: `GET /metrics` answers 404',
    }),
  trustProxyHops: z.coerce.number().int().min(0).max(10).default(0).register(settings, {
    env: 'BLOCKCATCH_TRUST_PROXY_HOPS',
    doc: "Proxies in front of the gateway whose `X-Forwarded-For` gives the client address; set it behind a load balancer, or every client shares the balancer's limits.",
  }),
  /** Identity's limits against guessing, spraying and SMS pumping (docs/operations.md, "Security limits"). */
  identityLimits: z
    .object({
      codeGuessesPerHour: z.coerce.number().int().min(1).max(100).default(5).register(settings, {
        env: 'BLOCKCATCH_CODE_GUESSES_PER_HOUR',
        doc: 'Wrong one-time codes per account per hour, across all its codes (sign-up, reset, phone, MFA, delivery platform); a new code does not reset the count. Past it: `LimitExceededException` and no code of the account works until the hour has passed.',
      }),
      passwordFailuresBeforeLock: z.coerce
        .number()
        .int()
        .min(1)
        .max(100)
        .default(5)
        .register(settings, {
          env: 'BLOCKCATCH_PASSWORD_FAILURES_BEFORE_LOCK',
          doc: "Wrong passwords in a row (SRP and USER_PASSWORD_AUTH) before the account locks: `NotAuthorizedException` 'Password attempts exceeded', the right password included.",
        }),
      passwordLockSeconds: z.coerce
        .number()
        .int()
        .min(1)
        .max(86_400)
        .default(60)
        .register(settings, {
          env: 'BLOCKCATCH_PASSWORD_LOCK_SECONDS',
          doc: 'The first lock; each further lock within a day doubles it, up to `BLOCKCATCH_PASSWORD_LOCK_MAX_SECONDS`.',
        }),
      passwordLockMaxSeconds: z.coerce
        .number()
        .int()
        .min(1)
        .max(7 * 86_400)
        .default(3600)
        .register(settings, {
          env: 'BLOCKCATCH_PASSWORD_LOCK_MAX_SECONDS',
          doc: 'The longest a password lock lasts.',
        }),
      passwordFailuresPerIpPerHour: z.coerce
        .number()
        .int()
        .min(1)
        .max(100_000)
        .default(20)
        .register(settings, {
          env: 'BLOCKCATCH_PASSWORD_FAILURES_PER_IP_PER_HOUR',
          doc: 'Wrong passwords from one client address per hour, whatever the account (password spraying): `LimitExceededException`.',
        }),
      codesPerNumberPerHour: z.coerce
        .number()
        .int()
        .min(1)
        .max(1000)
        .default(5)
        .register(settings, {
          env: 'BLOCKCATCH_CODES_PER_NUMBER_PER_HOUR',
          doc: 'Texts with a code to one number per hour (SignUp, ResendConfirmationCode, ForgotPassword, GetUserAttributeVerificationCode, a phone change, SMS MFA, the delivery-platform sign-in).',
        }),
      codesPerIpPerHour: z.coerce
        .number()
        .int()
        .min(1)
        .max(100_000)
        .default(10)
        .register(settings, {
          env: 'BLOCKCATCH_CODES_PER_IP_PER_HOUR',
          doc: 'Texts with a code requested from one client address per hour.',
        }),
      codesPerHour: z.coerce
        .number()
        .int()
        .min(1)
        .max(10_000_000)
        .default(1000)
        .register(settings, {
          env: 'BLOCKCATCH_CODES_PER_HOUR',
          doc: 'Texts with a code per hour in total.',
        }),
    })
    .prefault({}),
  /**
   * Invitation texts, against SMS pumping through drivers' invitations (docs/operations.md,
   * "Security limits"): past a driver's limit the invitation is refused (429 with Retry-After);
   * past the service's hourly total it is kept and texted in a later hour.
   */
  invitationLimits: z
    .object({
      perDriverPerHour: z.coerce.number().int().min(1).max(1000).default(3).register(settings, {
        env: 'BLOCKCATCH_INVITES_PER_DRIVER_PER_HOUR',
        doc: 'Invitation texts one driver may send per hour (then 429).',
      }),
      perDriverPerDay: z.coerce.number().int().min(1).max(10_000).default(10).register(settings, {
        env: 'BLOCKCATCH_INVITES_PER_DRIVER_PER_DAY',
        doc: 'Invitation texts one driver may send per day (then 429).',
      }),
      perHour: z.coerce.number().int().min(1).max(1_000_000).default(100).register(settings, {
        env: 'BLOCKCATCH_INVITES_PER_HOUR',
        doc: 'Invitation texts of the whole service per clock hour (then kept for the next hours).',
      }),
    })
    .prefault({}),
  fixturesDir: optionalString().register(settings, {
    env: 'BLOCKCATCH_FIXTURES_DIR',
    doc: 'The seed data for a new database.',
    defaultText: '`fixtures/data`',
  }),
  userPoolId: z
    .string()
    .regex(/^[\w-]+_[0-9a-zA-Z]+$/, 'must look like region_id, e.g. us-east-1_Sandbox01')
    .max(55)
    .default(SANDBOX_USER_POOL_ID)
    .register(settings, {
      env: 'BLOCKCATCH_USER_POOL_ID',
      doc: 'The identity pool id (`region_id`, at most 55 characters).',
    }),
  clientId: z.string().min(1).default(SANDBOX_CLIENT_ID).register(settings, {
    env: 'BLOCKCATCH_CLIENT_ID',
    doc: 'The app client id the pool accepts.',
  }),
  messageProvider: z.enum(['outbox', 'twilio']).default('outbox').register(settings, {
    env: 'BLOCKCATCH_MESSAGE_PROVIDER',
    doc: '`outbox` or `twilio` (see Providers).',
  }),
  sendRate: z.coerce.number().min(0).max(10_000).optional().register(settings, {
    env: 'BLOCKCATCH_SEND_RATE',
    doc: 'Segments per second each sender may take, across every process together (a long code takes 1); `0` lifts it (see Messaging).',
    defaultText: 'outbox `10`, Twilio `1`',
  }),
  senderRates: z
    .record(z.string().min(1).max(64), z.coerce.number().min(0).max(10_000))
    .default({})
    .register(settings, {
      env: 'BLOCKCATCH_SENDER_RATES',
      doc: 'Per-sender overrides of `BLOCKCATCH_SEND_RATE`: `+15550000000=1,MG…=30` (a number, a messaging service, or `whatsapp:+1…`).',
      defaultText: 'unset',
      read: 'pairs',
    }),
  marketingPacePercent: z.coerce.number().int().min(1).max(100).default(80).register(settings, {
    env: 'BLOCKCATCH_MARKETING_PACE_PERCENT',
    doc: "Percent of each sender's pace marketing may take; codes, alerts and invitations keep the rest.",
  }),
  marketingConsent: z.boolean().default(true).register(settings, {
    env: 'BLOCKCATCH_MARKETING_CONSENT',
    doc: "Marketing (admins' sends) goes only to numbers with a recorded consent; `off` sends it to everyone.",
    defaultText: '`on`',
    read: 'on-off',
  }),
  marketingWeeklyCap: z.coerce.number().int().min(0).max(100).default(3).register(settings, {
    env: 'BLOCKCATCH_MARKETING_WEEKLY_CAP',
    doc: 'Most marketing messages one number gets in any 7 days (codes and alerts are exempt); `0`: no cap.',
  }),
  approvalThreshold: z.coerce
    .number()
    .int()
    .min(1)
    .max(10_000_000)
    .default(1000)
    .register(settings, {
      env: 'BLOCKCATCH_APPROVAL_THRESHOLD',
      doc: "An admin's send to more recipients than this waits for another admin's approval; an owner may change it at run time, this is the value until they do.",
    }),
  approvalForWhatsapp: z.boolean().default(true).register(settings, {
    env: 'BLOCKCATCH_APPROVAL_WHATSAPP',
    doc: 'Every admin WhatsApp template send (marketing) waits for approval, whatever its size.',
    defaultText: '`on`',
    read: 'on-off',
  }),
  smsSegmentPrice: z.coerce.number().min(0).max(10).default(0.0083).register(settings, {
    env: 'BLOCKCATCH_SMS_SEGMENT_PRICE',
    doc: "US dollars per SMS segment, for job reports' estimated cost.",
  }),
  whatsappMessagePrice: z.coerce.number().min(0).max(10).default(0.005).register(settings, {
    env: 'BLOCKCATCH_WHATSAPP_MESSAGE_PRICE',
    doc: "US dollars per WhatsApp message, for job reports' estimated cost.",
  }),
  quietHours: z.boolean().default(true).register(settings, {
    env: 'BLOCKCATCH_QUIET_HOURS',
    doc: "`off` lets marketing messages out at night; on, 9 pm to 8 am in the recipient's zone they wait for 8 am.",
    defaultText: '`on`',
    read: 'on-off',
  }),
  productTimeZone: z
    .string()
    .refine((zone) => {
      try {
        new Intl.DateTimeFormat('en', { timeZone: zone });
        return true;
      } catch {
        return false;
      }
    }, 'must be an IANA time zone such as America/New_York')
    .default(PRODUCT_TIME_ZONE)
    .register(settings, {
      env: 'BLOCKCATCH_PRODUCT_TIME_ZONE',
      doc: 'The IANA zone of a recipient or driver whose own is unknown.',
    }),
  twilio: z
    .object({
      accountSid: optionalString().register(settings, {
        env: 'TWILIO_ACCOUNT_SID',
        doc: 'The Twilio account (with `BLOCKCATCH_MESSAGE_PROVIDER=twilio`).',
      }),
      authToken: optionalString().register(settings, {
        env: 'TWILIO_AUTH_TOKEN',
        doc: "The Twilio account's auth token; it also checks Twilio's webhook signatures.",
      }),
      from: optionalString().register(settings, {
        env: 'TWILIO_FROM',
        doc: 'The number SMS are sent from.',
      }),
      whatsappFrom: optionalString().register(settings, {
        env: 'TWILIO_WHATSAPP_FROM',
        doc: 'The WhatsApp sender (`whatsapp:+1…`).',
      }),
      messagingServiceSid: z
        .string()
        .regex(/^MG[0-9a-f]{32}$/)
        .optional()
        .register(settings, {
          env: 'TWILIO_MESSAGING_SERVICE_SID',
          doc: 'Send SMS through this messaging service (`MG…`) instead of `TWILIO_FROM`.',
        }),
      marketingSender: z
        .string()
        .max(34)
        .regex(/^(?:\+1\d{10}|MG[0-9a-f]{32})$/, 'must be a +1 number or a messaging service MG…')
        .optional()
        .register(settings, {
          env: 'TWILIO_MARKETING_SENDER',
          doc: "Marketing's own sender: a `+1` number or a messaging service `MG…`; opt-outs are then kept per sender.",
          defaultText: 'unset: the account sender',
        }),
      statusCallbackUrl: z
        .url({ protocol: /^https?$/ })
        .optional()
        .register(settings, {
          env: 'TWILIO_STATUS_CALLBACK_URL',
          doc: 'Where Twilio posts MessageStatus callbacks (signed, see Provider webhooks); with Twilio this or `BLOCKCATCH_PUBLIC_URL` is required, the gateway refuses to start without (exit 2, naming both).',
          defaultText: '`BLOCKCATCH_PUBLIC_URL` + `/api/webhooks/twilio/status`',
        }),
      baseUrl: z.string().url().default('https://api.twilio.com').register(settings, {
        env: 'TWILIO_BASE_URL',
        doc: "Twilio's API address; tests point it at a local server.",
      }),
      contentBaseUrl: z
        .url({ protocol: /^https?$/ })
        .optional()
        .register(settings, {
          env: 'TWILIO_CONTENT_BASE_URL',
          doc: "Twilio's Content API, where WhatsApp's approval of each template is read.",
          defaultText: '`https://content.twilio.com`',
        }),
    })
    .default({ baseUrl: 'https://api.twilio.com' }),
  versionId: z.string().min(1).default('sandbox-1'),
  cdnId: z.string().min(1).default('sandbox-cdn'),
  /** Seconds an id token lives (Cognito: one hour). */
  idTokenTtl: z.coerce.number().int().positive().default(3600),
  logLevel: z
    .enum(['fatal', 'error', 'warn', 'info', 'debug', 'silent'])
    .default('info')
    .register(settings, {
      env: 'BLOCKCATCH_LOG_LEVEL',
      doc: 'How much the gateway logs.',
      defaultText: '`info` (`warn` from `main.js`)',
    }),
  platformKey: optionalString().register(settings, {
    env: 'BLOCKCATCH_PLATFORM_KEY',
    doc: "32 bytes (base64 or hex) sealing drivers' delivery-platform credentials; every process must share it.",
    defaultText: 'generated beside the data folder',
  }),
  weeklyPriceCents: z.coerce.number().int().positive().default(2500).register(settings, {
    env: 'BLOCKCATCH_WEEKLY_PRICE_CENTS',
    doc: 'The price of one week, in US cents.',
  }),
  paymentProvider: z.enum(['sandbox', 'stripe']).default('sandbox').register(settings, {
    env: 'BLOCKCATCH_PAYMENT_PROVIDER',
    doc: '`sandbox` or `stripe` (see Providers).',
  }),
  stripe: z
    .object({
      secretKey: optionalString().register(settings, {
        env: 'STRIPE_SECRET_KEY',
        doc: 'The Stripe secret key (with `BLOCKCATCH_PAYMENT_PROVIDER=stripe`).',
      }),
      webhookSecret: optionalString().register(settings, {
        env: 'STRIPE_WEBHOOK_SECRET',
        doc: 'The signing secret of the Stripe webhook endpoint.',
      }),
      baseUrl: z
        .url({ protocol: /^https?$/ })
        .default('https://api.stripe.com')
        .register(settings, {
          env: 'STRIPE_BASE_URL',
          doc: "Stripe's API address; tests point it at a local server.",
        }),
    })
    .prefault({}),
  dbQueueLimit: z.coerce.number().int().min(1).max(100_000).default(500).register(settings, {
    env: 'BLOCKCATCH_DB_QUEUE_LIMIT',
    doc: "Requests that may wait for the database at once: a request counts from the moment it is admitted while it has a database call under way, however many queries it runs together; background jobs do not count. Past it, new requests are answered at once with 503 `unavailable` and `Retry-After: 1`; the status checks and the web app's files are always answered.",
  }),
  dbPoolSize: z.coerce.number().int().min(1).max(500).default(10).register(settings, {
    env: 'BLOCKCATCH_DB_POOL_SIZE',
    doc: "Connections each process opens to PostgreSQL. Keep processes × pool size under the server's `max_connections`. Ignored on PGlite (one connection, in its own thread).",
  }),
  dbApplicationName: z
    .string()
    .regex(/^[\x20-\x7e]{1,63}$/, 'must be 1 to 63 printable ASCII characters')
    .default('blockcatch-gateway')
    .register(settings, {
      env: 'BLOCKCATCH_DB_APPLICATION_NAME',
      doc: "The `application_name` of the gateway's sessions in `pg_stat_activity` (printable ASCII).",
    }),
  dbConnectTimeoutMs: z.coerce
    .number()
    .int()
    .min(100)
    .max(60_000)
    .default(2000)
    .register(settings, {
      env: 'BLOCKCATCH_DB_CONNECT_TIMEOUT_MS',
      doc: 'Opening a PostgreSQL connection longer than this is a database outage (requests are answered 503).',
    }),
  shutdownDrainMs: z.coerce.number().int().min(0).max(300_000).default(5000).register(settings, {
    env: 'BLOCKCATCH_SHUTDOWN_DRAIN_MS',
    doc: 'After SIGTERM or SIGINT, how long ready fails while requests are still served, so load balancers stop sending.',
  }),
  shutdownTimeoutMs: z.coerce
    .number()
    .int()
    .min(1000)
    .max(600_000)
    .default(15_000)
    .register(settings, {
      env: 'BLOCKCATCH_SHUTDOWN_TIMEOUT_MS',
      doc: 'Above the drain: the process exits 0 within this of the signal, whatever is still open.',
    }),
  principalCacheTtlMs: z.coerce
    .number()
    .int()
    .min(0)
    .max(300_000)
    .default(30_000)
    .register(settings, {
      env: 'BLOCKCATCH_PRINCIPAL_CACHE_TTL_MS',
      doc: 'How long a verified id token and its caller are reused, so an authenticated read costs no query. A sign-out, a revoked session or any change to a user ends the reuse whatever the value: at once through the same process, within `BLOCKCATCH_PRINCIPAL_VERSION_CHECK_MS` through another; `0` verifies on every request.',
    }),
  principalVersionCheckMs: z.coerce
    .number()
    .int()
    .min(0)
    .max(60_000)
    .default(1000)
    .register(settings, {
      env: 'BLOCKCATCH_PRINCIPAL_VERSION_CHECK_MS',
      doc: "How often the principal cache reads the users' and sign-in versions: a sign-out or a user change through another process is seen within this.",
    }),
  principalCacheMaxEntries: z.coerce
    .number()
    .int()
    .min(1)
    .max(1_000_000)
    .default(10_000)
    .register(settings, {
      env: 'BLOCKCATCH_PRINCIPAL_CACHE_MAX_ENTRIES',
      doc: 'Tokens each process keeps verified at most; the oldest go first.',
    }),
  paymentWebhookToleranceSeconds: z.coerce
    .number()
    .int()
    .min(10)
    .max(3600)
    .default(300)
    .register(settings, {
      env: 'BLOCKCATCH_PAYMENT_WEBHOOK_TOLERANCE_S',
      doc: "How old a processor's signed webhook (`Stripe-Signature: t=…,v1=…`) may be, in seconds; an older one is refused as a replay (Stripe's own default is 300).",
    }),
  goodStandingSweepMs: z.coerce
    .number()
    .int()
    .min(0)
    .max(86_400_000)
    .default(60_000)
    .register(settings, {
      env: 'BLOCKCATCH_GOOD_STANDING_SWEEP_MS',
      doc: "How often the billing sweep runs: the sandbox processor's renewals and dunning retries, referral credit owed to the processor, drivers whose paid time ran out losing good standing, and (at most hourly) the weekly credit for lost hours; `0` turns it off.",
    }),
  /** Credit for lost hours (docs/product.md): what counts as lost, and the weekly credit. */
  lostHours: z
    .object({
      enabled: z.boolean().default(true).register(settings, {
        env: 'BLOCKCATCH_CREDIT_LOST_HOURS',
        doc: "Scheduled time lost through no fault of the driver's (platform outages, long throttling, the gateway down) is credited as service time the day after each week ends (Monday to Sunday in the driver's zone); `off` still records it but credits nothing.",
        read: 'on-off',
        fix: 'use on or off',
      }),
      minimumMinutes: z.coerce.number().int().min(1).max(10_080).default(60).register(settings, {
        env: 'BLOCKCATCH_CREDIT_MIN_MINUTES',
        doc: "A week's lost time is credited only when it comes to at least this many minutes.",
      }),
      failuresToCount: z.coerce.number().int().min(1).max(100).default(3).register(settings, {
        env: 'BLOCKCATCH_CREDIT_FAILURES',
        doc: "This many failed polls in a row (the platform's 5xx or no answer) make a platform outage for the driver, lost from the first failure to the next answer.",
      }),
      throttleMinMs: z.coerce
        .number()
        .int()
        .min(0)
        .max(86_400_000)
        .default(900_000)
        .register(settings, {
          env: 'BLOCKCATCH_CREDIT_THROTTLE_MIN_MS',
          doc: 'The platform throttling a driver without a break for at least this long is lost time, all of it; shorter throttling is routine.',
        }),
      heartbeatMs: z.coerce
        .number()
        .int()
        .min(1000)
        .max(3_600_000)
        .default(60_000)
        .register(settings, {
          env: 'BLOCKCATCH_HEARTBEAT_MS',
          doc: 'How often each gateway process marks that it runs; a start finding the last mark older than two of these records the gap as the gateway down for the drivers it was searching for.',
        }),
    })
    .prefault({}),
  /** The sandbox delivery platform (platform/sandbox.ts); tests turn the generator and 5xx off. */
  sandboxPlatform: z
    .object({
      offerIntervalMs: z.coerce.number().min(0).default(5000),
      takenAfterMinMs: z.coerce.number().min(0).default(2000),
      takenAfterMaxMs: z.coerce.number().min(0).default(8000),
      maxPollsPerSecond: z.coerce.number().min(0).default(5),
      retryAfterMs: z.coerce.number().min(0).default(2000),
      failureRate: z.coerce.number().min(0).max(1).default(0.01),
      /** How long a platform access token works before the catcher refreshes it. */
      sessionTtlMs: z.coerce.number().int().min(1000).default(3_600_000),
      /** Probability that a poll makes the platform ask for a check in its app (captcha, identity). */
      verificationRate: z.coerce.number().min(0).max(1).default(0).register(settings, {
        env: 'BLOCKCATCH_SANDBOX_VERIFICATION_RATE',
        doc: "Share of the sandbox platform's polls that ask the driver to complete a check in its app (0 to 1); admins can also ask for one.",
      }),
    })
    .prefault({}),
  /** Alerts to drivers (alerts/): how often time-based alerts are looked for (0: never). */
  alerts: z
    .object({
      sweepMs: z.coerce.number().int().min(0).max(86_400_000).default(60_000).register(settings, {
        env: 'BLOCKCATCH_ALERT_SWEEP_MS',
        doc: "How often each process looks for drivers whose service ends within 24 hours (and, hourly, for Monday's weekly summaries) to alert; `0` turns it off.",
      }),
      throttleAlertMinMs: z.coerce
        .number()
        .int()
        .min(0)
        .max(86_400_000)
        .default(300_000)
        .register(settings, {
          env: 'BLOCKCATCH_THROTTLE_ALERT_MIN_MS',
          doc: 'A platform throttle at least this long texts the driver ("searching resumes at …"); shorter ones are routine.',
        }),
    })
    .prefault({}),
  /** The block catcher (catcher/): lease and poll timings; tests shorten them. */
  catcher: z
    .object({
      enabled: z.boolean().default(true),
      // A dead process's drivers move after at most leaseMs + renewMs: 25 s, inside the 30 s promised.
      leaseMs: z.coerce.number().int().positive().default(20_000),
      renewMs: z.coerce.number().int().positive().default(5000),
      pollIntervalMs: z.coerce.number().int().positive().default(1000),
      minPollIntervalMs: z.coerce.number().int().min(0).default(250),
      backoffBaseMs: z.coerce.number().int().positive().default(1000),
      backoffMaxMs: z.coerce.number().int().positive().default(60_000),
    })
    .prefault({}),
});

export type GatewayConfig = z.infer<typeof configSchema>;

/** The address the web app is reached at, for links in texts: the public URL, else the listener's. */
export function appBaseUrl(config: Pick<GatewayConfig, 'publicUrl' | 'host' | 'port'>): string {
  return config.publicUrl ?? `http://${config.host}:${config.port}`;
}

/** Where marketing SMS short links point: the link domain, else the web app's address. */
export function linkBaseUrl(
  config: Pick<GatewayConfig, 'linkBaseUrl' | 'publicUrl' | 'host' | 'port'>,
): string {
  return config.linkBaseUrl ?? appBaseUrl(config);
}
export type GatewayConfigInput = z.input<typeof configSchema>;

export interface Setting {
  /** Where it sits in the config (`dbPoolSize`, `invitationLimits.perHour`). */
  path: string[];
  schema: z.ZodType;
  meta: SettingMeta;
}

/** Every declared setting, in declaration order. */
export function listSettings(): Setting[] {
  return collect(configSchema, []);
}

function collect(schema: z.ZodType, path: string[]): Setting[] {
  const meta = metaOf(schema);
  if (meta) return [{ path, schema, meta }];
  const object = unwrap(schema);
  if (!(object instanceof z.ZodObject)) return [];
  return Object.entries(object.shape as Record<string, z.ZodType>).flatMap(([key, field]) =>
    collect(field, [...path, key]),
  );
}

/** The registered metadata of a setting's schema, looking inside defaults and optionals. */
function metaOf(schema: z.ZodType): SettingMeta | undefined {
  for (let at: z.ZodType | undefined = schema; at; at = inner(at)) {
    const meta = settings.get(at);
    if (meta) return meta;
  }
  return undefined;
}

function inner(schema: z.ZodType): z.ZodType | undefined {
  const def = schema._zod.def as { innerType?: z.ZodType; in?: z.ZodType };
  return def.innerType ?? def.in;
}

function unwrap(schema: z.ZodType): z.ZodType {
  let at = schema;
  for (let next = inner(at); next; next = inner(at)) at = next;
  return at;
}

/** Reads every declared variable from `env` (an empty one counts as unset); flags override it. */
export function configFromEnv(env: NodeJS.ProcessEnv): GatewayConfigInput {
  const input: Record<string, unknown> = {};
  for (const { path, meta } of listSettings()) {
    const text = [meta.env, ...(meta.also ?? [])].map((name) => env[name]).find((v) => v);
    if (text === undefined) continue;
    setAt(input, path, read(text, meta.read));
  }
  return input as GatewayConfigInput;
}

function setAt(target: Record<string, unknown>, path: string[], value: unknown): void {
  let at = target;
  for (const key of path.slice(0, -1)) {
    at[key] ??= {};
    at = at[key] as Record<string, unknown>;
  }
  at[path.at(-1)!] = value;
}

function read(text: string, kind: SettingMeta['read']): unknown {
  switch (kind) {
    case 'list':
      return text
        .split(',')
        .map((item) => item.trim())
        .filter(Boolean);
    case 'on-off':
      return onOff(text);
    case 'pairs':
      return parsePairs(text);
    default:
      return text;
  }
}

/** `on`/`off` (or true/false, 1/0); anything else is left for the schema to refuse. */
function onOff(value: string): boolean | string {
  if (/^(on|true|1|yes)$/i.test(value)) return true;
  if (/^(off|false|0|no)$/i.test(value)) return false;
  return value;
}

/** `+15550000000=1,MG…=30`: each sender's segments per second (values are checked by the schema). */
function parsePairs(value: string): Record<string, string> {
  return Object.fromEntries(
    value
      .split(',')
      .map((pair) => pair.trim())
      .filter(Boolean)
      .map((pair) => {
        const at = pair.lastIndexOf('=');
        return at < 0 ? [pair, ''] : [pair.slice(0, at).trim(), pair.slice(at + 1).trim()];
      }),
  );
}

/** Configs parseConfig returned: building a gateway from one does not validate it again. */
const parsed = new WeakSet<object>();

/**
 * Validates settings, failing with one line per bad setting: the name the operator set it by (its
 * flag when `flags` says it came from one, else its variable), its value and how to put it right.
 */
export function parseConfig(
  input: GatewayConfigInput | GatewayConfig,
  flags: ReadonlySet<string> = new Set(),
): GatewayConfig {
  if (parsed.has(input)) return input as GatewayConfig;
  const result = configSchema.safeParse(input);
  if (result.success) {
    if (result.data.messageProvider === 'twilio') {
      const { accountSid, authToken, from } = result.data.twilio;
      if (!accountSid || !authToken || !from) {
        throw new ConfigError(
          'BLOCKCATCH_MESSAGE_PROVIDER=twilio needs TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN and TWILIO_FROM to be set.',
        );
      }
      // Without a callback URL Twilio never reports delivery and recipients stay 'sent' for good.
      if (!result.data.publicUrl && !result.data.twilio.statusCallbackUrl) {
        throw new ConfigError(
          'BLOCKCATCH_MESSAGE_PROVIDER=twilio needs BLOCKCATCH_PUBLIC_URL (the address Twilio reaches this gateway at, e.g. https://api.example.com) or TWILIO_STATUS_CALLBACK_URL to be set: without one Twilio sends no delivery reports.',
        );
      }
    }
    if (result.data.shutdownTimeoutMs <= result.data.shutdownDrainMs) {
      throw new ConfigError(
        `BLOCKCATCH_SHUTDOWN_TIMEOUT_MS (${result.data.shutdownTimeoutMs}) must be longer than BLOCKCATCH_SHUTDOWN_DRAIN_MS (${result.data.shutdownDrainMs}): the drain comes first, then the requests and workers finish.`,
      );
    }
    if (result.data.paymentProvider === 'stripe') {
      const { secretKey, webhookSecret } = result.data.stripe;
      if (!secretKey || !webhookSecret) {
        throw new ConfigError(
          'BLOCKCATCH_PAYMENT_PROVIDER=stripe needs STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET to be set.',
        );
      }
    }
    parsed.add(result.data);
    return result.data;
  }
  const declared = listSettings();
  const lines = result.error.issues.map((issue) => {
    const field = issue.path.join('.');
    const setting = declared.find(({ path }) => {
      const name = path.join('.');
      return field === name || field.startsWith(`${name}.`);
    });
    const value = issue.path.reduce<unknown>(
      (v, k) => (v && typeof v === 'object' ? (v as Record<PropertyKey, unknown>)[k] : undefined),
      input,
    );
    // A URL may carry a password.
    const shown = /key|token|secret|url/i.test(field) ? '(hidden)' : JSON.stringify(value);
    if (!setting) return `${field} ${shown} is not valid: ${issue.message}`;
    const { meta } = setting;
    const name = meta.flag && flags.has(meta.flag) ? meta.flag : meta.env;
    return `${name} ${shown} is not valid: ${meta.fix ?? issue.message}`;
  });
  throw new ConfigError(lines.join('\n'));
}

/** The SDK's one ConfigError: a setting that cannot work, named with its fix. */
export { ConfigError };
