// The gateway's settings, read once from flags and the environment and validated at the edge.
import {
  ConfigError,
  PRODUCT_TIME_ZONE,
  SANDBOX_CLIENT_ID,
  SANDBOX_USER_POOL_ID,
  withoutTrailingSlashes,
} from '@blockcatch/sdk';
import { z } from 'zod';

const port = z.coerce.number().int().min(0).max(65535);
const optionalString = z.string().trim().min(1).optional();

export const configSchema = z.object({
  host: z.string().min(1).default('127.0.0.1'),
  port: port.default(8787),
  /**
   * Connections the kernel holds for the gateway before it accepts them. Node's 511 drops part of
   * a burst of new connections, which then wait a second for their SYN to go again; the kernel
   * caps it at net.core.somaxconn.
   */
  listenBacklog: z.coerce.number().int().min(1).max(65_535).default(4096),
  /** PGlite's data folder; ignored when `databaseUrl` is set. Unset means in memory (main.ts sets `.blockcatch/data`). */
  dataDir: optionalString,
  databaseUrl: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must start with postgres:// or postgresql://')
    .optional(),
  /** Postgres schema to work in (tests give each run its own). */
  databaseSchema: optionalString,
  /** Folder of the built web app to serve; skipped when absent. */
  webDir: optionalString,
  seed: z.boolean().default(true),
  /** 32-byte key, base64 or hex; when set, the user tables answer encrypted. */
  responseKey: optionalString,
  /** Browser origins allowed to call the API cross-origin (the web dev server); the served app is same-origin. */
  corsOrigins: z
    .array(z.url({ protocol: /^https?$/ }))
    .default(['http://localhost:5173', 'http://127.0.0.1:5173']),
  /**
   * The address clients and providers reach this deployment at (scheme, host, optional path): the
   * tokens' issuer and the URL webhooks are signed over. Every process of a deployment must share it;
   * unset means the listen address.
   */
  publicUrl: z
    .url({ protocol: /^https?$/ })
    .transform(withoutTrailingSlashes)
    .optional(),
  /** Key of the HMAC-SHA256 that signs the outbox provider's webhooks; unset refuses them all. */
  webhookSecret: z.string().min(16, 'must be at least 16 characters').optional(),
  /** Redis to share the request limit's counts through; unset shares them through the database (none on PGlite). */
  redisUrl: z
    .string()
    .regex(/^rediss?:\/\//, 'must start with redis:// or rediss://')
    .optional(),
  /** Requests per client address per minute on every route without a limit of its own. */
  rateLimit: z
    .object({
      perMinute: z.coerce.number().int().min(1).max(1_000_000).default(1000),
      /** How often each process sends the requests it counted to Redis or PostgreSQL. */
      shareMs: z.coerce.number().int().min(10).max(10_000).default(100),
    })
    .prefault({}),
  /** Bearer token that opens `GET /metrics`; unset, the route answers 404. */
  metricsToken: z
    .string()
    .min(16, 'must be at least 16 characters')
    .max(256)
    .regex(/^[\x21-\x7e]+$/, 'must be printable ASCII without spaces')
    .optional(),
  /** Trust X-Forwarded-For from this many proxies in front of the gateway (0: none). */
  trustProxyHops: z.coerce.number().int().min(0).max(10).default(0),
  /** Identity's limits against guessing, spraying and SMS pumping (docs/operations.md, "Security limits"). */
  identityLimits: z
    .object({
      /** Wrong one-time codes per account per hour, across all its codes. */
      codeGuessesPerHour: z.coerce.number().int().min(1).max(100).default(5),
      /** Wrong passwords in a row before the account locks. */
      passwordFailuresBeforeLock: z.coerce.number().int().min(1).max(100).default(5),
      /** The first lock; each further lock in a day doubles it, up to `passwordLockMaxSeconds`. */
      passwordLockSeconds: z.coerce.number().int().min(1).max(86_400).default(60),
      passwordLockMaxSeconds: z.coerce
        .number()
        .int()
        .min(1)
        .max(7 * 86_400)
        .default(3600),
      /** Wrong passwords from one client address per hour, whatever the account. */
      passwordFailuresPerIpPerHour: z.coerce.number().int().min(1).max(100_000).default(20),
      /** Texts with a code to one number per hour. */
      codesPerNumberPerHour: z.coerce.number().int().min(1).max(1000).default(5),
      /** Texts with a code requested from one client address per hour. */
      codesPerIpPerHour: z.coerce.number().int().min(1).max(100_000).default(10),
      /** Texts with a code per hour in total. */
      codesPerHour: z.coerce.number().int().min(1).max(10_000_000).default(1000),
    })
    .prefault({}),
  /**
   * Invitation texts, against SMS pumping through drivers' invitations (docs/operations.md,
   * "Security limits"): past a driver's limit the invitation is refused (429 with Retry-After);
   * past the service's hourly total it is kept and texted in a later hour.
   */
  invitationLimits: z
    .object({
      /** Invitation texts one driver may send per hour. */
      perDriverPerHour: z.coerce.number().int().min(1).max(1000).default(3),
      /** Invitation texts one driver may send per day. */
      perDriverPerDay: z.coerce.number().int().min(1).max(10_000).default(10),
      /** Invitation texts the whole service sends per clock hour; the rest wait for the next hours. */
      perHour: z.coerce.number().int().min(1).max(1_000_000).default(100),
    })
    .prefault({}),
  /** Folder of the seed data (`flex-users.json`, `staff.json`…); unset uses the repository's fixtures/data. */
  fixturesDir: optionalString,
  userPoolId: z
    .string()
    .regex(/^[\w-]+_[0-9a-zA-Z]+$/, 'must look like region_id, e.g. us-east-1_Sandbox01')
    .max(55)
    .default(SANDBOX_USER_POOL_ID),
  clientId: z.string().min(1).default(SANDBOX_CLIENT_ID),
  messageProvider: z.enum(['outbox', 'twilio']).default('outbox'),
  /**
   * Segments per second each sender may take, shared by every gateway process; 0 lifts the limit.
   * Unset: 10 for the outbox, 1 for a Twilio long code.
   */
  sendRate: z.coerce.number().min(0).max(10_000).optional(),
  /** Per-sender overrides of `sendRate`: a number or messaging service id to segments per second. */
  senderRates: z
    .record(z.string().min(1).max(64), z.coerce.number().min(0).max(10_000))
    .default({}),
  /**
   * Percent of each sender's pace marketing may take; the rest stays free for codes, alerts and
   * invitations, which are also claimed first.
   */
  marketingPacePercent: z.coerce.number().int().min(1).max(100).default(80),
  /** Marketing (admins' sends) goes only to numbers with a recorded consent; off: to everyone. */
  marketingConsent: z.boolean().default(true),
  /** Most marketing messages one number gets in any 7 days (codes and alerts are exempt); 0: no cap. */
  marketingWeeklyCap: z.coerce.number().int().min(0).max(100).default(3),
  /** What one SMS segment and one WhatsApp message cost, in US dollars, for job reports. */
  smsSegmentPrice: z.coerce.number().min(0).max(10).default(0.0083),
  whatsappMessagePrice: z.coerce.number().min(0).max(10).default(0.005),
  /**
   * An admin's send to more recipients than this waits for another admin's approval (an owner may
   * change it at run time; this is the value until they do).
   */
  approvalThreshold: z.coerce.number().int().min(1).max(10_000_000).default(1000),
  /** Every admin WhatsApp template send (marketing) waits for approval, whatever its size. */
  approvalForWhatsapp: z.boolean().default(true),
  /** Hold marketing messages from 9 pm to 8 am in each recipient's zone. */
  quietHours: z.boolean().default(true),
  /** IANA zone for recipients whose region is unknown (quiet hours). */
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
    .default(PRODUCT_TIME_ZONE),
  twilio: z
    .object({
      accountSid: optionalString,
      authToken: optionalString,
      from: optionalString,
      whatsappFrom: optionalString,
      /** Messaging service (`MG…`) to send through instead of `from`. */
      messagingServiceSid: z
        .string()
        .regex(/^MG[0-9a-f]{32}$/)
        .optional(),
      /**
       * Marketing's own sender (a number or a messaging service `MG…`); unset, marketing goes out
       * from the account sender. Opt-outs are then kept per sender.
       */
      marketingSender: z
        .string()
        .max(34)
        .regex(/^(?:\+1\d{10}|MG[0-9a-f]{32})$/, 'must be a +1 number or a messaging service MG…')
        .optional(),
      /** Where Twilio posts MessageStatus callbacks; default BLOCKCATCH_PUBLIC_URL + /api/webhooks/twilio/status. */
      statusCallbackUrl: z.url({ protocol: /^https?$/ }).optional(),
      baseUrl: z.string().url().default('https://api.twilio.com'),
      /** Twilio's Content API, where WhatsApp's approval of each template is read (default https://content.twilio.com). */
      contentBaseUrl: z.url({ protocol: /^https?$/ }).optional(),
    })
    .default({ baseUrl: 'https://api.twilio.com' }),
  versionId: z.string().min(1).default('sandbox-1'),
  cdnId: z.string().min(1).default('sandbox-cdn'),
  /** Seconds an id token lives (Cognito: one hour). */
  idTokenTtl: z.coerce.number().int().positive().default(3600),
  logLevel: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'silent']).default('info'),
  /** 32-byte key (base64 or hex) sealing drivers' delivery-platform credentials and tokens. */
  platformKey: optionalString,
  /** Price of one week of service, in US cents. */
  weeklyPriceCents: z.coerce.number().int().positive().default(2500),
  /** Who processes cards on the hosted checkout: the sandbox's test pages, or Stripe Checkout. */
  paymentProvider: z.enum(['sandbox', 'stripe']).default('sandbox'),
  stripe: z
    .object({
      secretKey: optionalString,
      webhookSecret: optionalString,
      /** Stripe's API address; tests point it at a local fake. */
      baseUrl: z.url({ protocol: /^https?$/ }).default('https://api.stripe.com'),
    })
    .prefault({}),
  /**
   * Queries that may wait for the database before the gateway answers new requests 503 with
   * `Retry-After` instead of queueing them (docs/operations.md, "Performance and load").
   */
  dbQueueLimit: z.coerce.number().int().min(1).max(100_000).default(500),
  /** Connections each process opens to PostgreSQL (ignored on PGlite, which has one). */
  dbPoolSize: z.coerce.number().int().min(1).max(500).default(10),
  /** How the gateway's sessions are named in PostgreSQL's `pg_stat_activity`. */
  dbApplicationName: z
    .string()
    .regex(/^[\x20-\x7e]{1,63}$/, 'must be 1 to 63 printable ASCII characters')
    .default('blockcatch-gateway'),
  /** How long opening a PostgreSQL connection may take before requests are answered 503. */
  dbConnectTimeoutMs: z.coerce.number().int().min(100).max(60_000).default(2000),
  /**
   * On SIGTERM or SIGINT: how long the process keeps serving after ready starts failing, so load
   * balancers stop sending before it stops accepting (docs/operations.md).
   */
  shutdownDrainMs: z.coerce.number().int().min(0).max(300_000).default(5000),
  /** The most a shutdown may take from the signal; past it the process exits 0 whatever is open. */
  shutdownTimeoutMs: z.coerce.number().int().min(1000).max(600_000).default(15_000),
  /**
   * How long a verified token and its caller are reused without verifying again (0: never). Any
   * sign-out or user change ends the reuse at once whatever this is (docs/operations.md).
   */
  principalCacheTtlMs: z.coerce.number().int().min(0).max(300_000).default(30_000),
  /**
   * How often the principal cache reads the users' and sign-in versions: a sign-out or a user
   * change through another process is seen within this (through this process, at once).
   */
  principalVersionCheckMs: z.coerce.number().int().min(0).max(60_000).default(1000),
  /** Tokens each process keeps verified at most; the oldest go first. */
  principalCacheMaxEntries: z.coerce.number().int().min(1).max(1_000_000).default(10_000),
  /**
   * Seconds a processor's signed webhook event stays acceptable after its `t=` timestamp (Stripe's
   * own libraries default to 300); an older one is refused as a replay.
   */
  paymentWebhookToleranceSeconds: z.coerce.number().int().min(10).max(3600).default(300),
  /**
   * How often the billing sweep runs (the sandbox's renewals and dunning retries, referral credit
   * owed to the processor) and drivers whose paid time ran out lose good standing; 0: never.
   */
  goodStandingSweepMs: z.coerce.number().int().min(0).max(86_400_000).default(60_000),
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
      verificationRate: z.coerce.number().min(0).max(1).default(0),
    })
    .prefault({}),
  /** Alerts to drivers (alerts/): how often time-based alerts are looked for (0: never). */
  alerts: z
    .object({
      sweepMs: z.coerce.number().int().min(0).max(86_400_000).default(60_000),
      /** A throttle shorter than this is routine and not worth a text. */
      throttleAlertMinMs: z.coerce.number().int().min(0).max(86_400_000).default(300_000),
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
export type GatewayConfigInput = z.input<typeof configSchema>;

/** Reads the BLOCKCATCH_* environment (and DATABASE_URL); flags given to main.ts override it. */
export function configFromEnv(env: NodeJS.ProcessEnv): GatewayConfigInput {
  const e = (name: string) => (env[name] === '' ? undefined : env[name]);
  return {
    host: e('BLOCKCATCH_HOST'),
    port: e('BLOCKCATCH_PORT') ?? e('PORT'),
    listenBacklog: e('BLOCKCATCH_LISTEN_BACKLOG'),
    dataDir: e('BLOCKCATCH_DATA_DIR'),
    databaseUrl: e('DATABASE_URL'),
    databaseSchema: e('BLOCKCATCH_DATABASE_SCHEMA'),
    webDir: e('BLOCKCATCH_WEB_DIR'),
    responseKey: e('BLOCKCATCH_RESPONSE_KEY'),
    corsOrigins: e('BLOCKCATCH_CORS_ORIGINS')
      ?.split(',')
      .map((origin) => origin.trim())
      .filter(Boolean),
    fixturesDir: e('BLOCKCATCH_FIXTURES_DIR'),
    publicUrl: e('BLOCKCATCH_PUBLIC_URL'),
    redisUrl: e('REDIS_URL'),
    rateLimit: {
      perMinute: e('BLOCKCATCH_RATE_LIMIT_PER_MINUTE'),
      shareMs: e('BLOCKCATCH_RATE_LIMIT_SHARE_MS'),
    },
    metricsToken: e('BLOCKCATCH_METRICS_TOKEN'),
    trustProxyHops: e('BLOCKCATCH_TRUST_PROXY_HOPS'),
    identityLimits: {
      codeGuessesPerHour: e('BLOCKCATCH_CODE_GUESSES_PER_HOUR'),
      passwordFailuresBeforeLock: e('BLOCKCATCH_PASSWORD_FAILURES_BEFORE_LOCK'),
      passwordLockSeconds: e('BLOCKCATCH_PASSWORD_LOCK_SECONDS'),
      passwordLockMaxSeconds: e('BLOCKCATCH_PASSWORD_LOCK_MAX_SECONDS'),
      passwordFailuresPerIpPerHour: e('BLOCKCATCH_PASSWORD_FAILURES_PER_IP_PER_HOUR'),
      codesPerNumberPerHour: e('BLOCKCATCH_CODES_PER_NUMBER_PER_HOUR'),
      codesPerIpPerHour: e('BLOCKCATCH_CODES_PER_IP_PER_HOUR'),
      codesPerHour: e('BLOCKCATCH_CODES_PER_HOUR'),
    },
    invitationLimits: {
      perDriverPerHour: e('BLOCKCATCH_INVITES_PER_DRIVER_PER_HOUR'),
      perDriverPerDay: e('BLOCKCATCH_INVITES_PER_DRIVER_PER_DAY'),
      perHour: e('BLOCKCATCH_INVITES_PER_HOUR'),
    },
    webhookSecret: e('BLOCKCATCH_WEBHOOK_SECRET'),
    userPoolId: e('BLOCKCATCH_USER_POOL_ID'),
    clientId: e('BLOCKCATCH_CLIENT_ID'),
    messageProvider: e('BLOCKCATCH_MESSAGE_PROVIDER') as GatewayConfigInput['messageProvider'],
    sendRate: e('BLOCKCATCH_SEND_RATE'),
    dbQueueLimit: e('BLOCKCATCH_DB_QUEUE_LIMIT'),
    dbPoolSize: e('BLOCKCATCH_DB_POOL_SIZE'),
    dbApplicationName: e('BLOCKCATCH_DB_APPLICATION_NAME'),
    dbConnectTimeoutMs: e('BLOCKCATCH_DB_CONNECT_TIMEOUT_MS'),
    shutdownDrainMs: e('BLOCKCATCH_SHUTDOWN_DRAIN_MS'),
    shutdownTimeoutMs: e('BLOCKCATCH_SHUTDOWN_TIMEOUT_MS'),
    principalCacheTtlMs: e('BLOCKCATCH_PRINCIPAL_CACHE_TTL_MS'),
    principalCacheMaxEntries: e('BLOCKCATCH_PRINCIPAL_CACHE_MAX_ENTRIES'),
    principalVersionCheckMs: e('BLOCKCATCH_PRINCIPAL_VERSION_CHECK_MS'),
    goodStandingSweepMs: e('BLOCKCATCH_GOOD_STANDING_SWEEP_MS'),
    paymentWebhookToleranceSeconds: e('BLOCKCATCH_PAYMENT_WEBHOOK_TOLERANCE_S'),
    sandboxPlatform: {
      verificationRate: e('BLOCKCATCH_SANDBOX_VERIFICATION_RATE'),
    },
    alerts: {
      sweepMs: e('BLOCKCATCH_ALERT_SWEEP_MS'),
      throttleAlertMinMs: e('BLOCKCATCH_THROTTLE_ALERT_MIN_MS'),
    },
    senderRates: parseSenderRates(e('BLOCKCATCH_SENDER_RATES')),
    marketingPacePercent: e('BLOCKCATCH_MARKETING_PACE_PERCENT'),
    marketingConsent: onOff(e('BLOCKCATCH_MARKETING_CONSENT')),
    marketingWeeklyCap: e('BLOCKCATCH_MARKETING_WEEKLY_CAP'),
    smsSegmentPrice: e('BLOCKCATCH_SMS_SEGMENT_PRICE'),
    whatsappMessagePrice: e('BLOCKCATCH_WHATSAPP_MESSAGE_PRICE'),
    approvalThreshold: e('BLOCKCATCH_APPROVAL_THRESHOLD'),
    approvalForWhatsapp: onOff(e('BLOCKCATCH_APPROVAL_WHATSAPP')),
    productTimeZone: e('BLOCKCATCH_PRODUCT_TIME_ZONE'),
    quietHours: onOff(e('BLOCKCATCH_QUIET_HOURS')),
    twilio: {
      accountSid: e('TWILIO_ACCOUNT_SID'),
      authToken: e('TWILIO_AUTH_TOKEN'),
      from: e('TWILIO_FROM'),
      whatsappFrom: e('TWILIO_WHATSAPP_FROM'),
      messagingServiceSid: e('TWILIO_MESSAGING_SERVICE_SID'),
      marketingSender: e('TWILIO_MARKETING_SENDER'),
      statusCallbackUrl: e('TWILIO_STATUS_CALLBACK_URL'),
      baseUrl: e('TWILIO_BASE_URL') ?? 'https://api.twilio.com',
      contentBaseUrl: e('TWILIO_CONTENT_BASE_URL'),
    },
    logLevel: e('BLOCKCATCH_LOG_LEVEL') as GatewayConfigInput['logLevel'],
    platformKey: e('BLOCKCATCH_PLATFORM_KEY'),
    weeklyPriceCents: e('BLOCKCATCH_WEEKLY_PRICE_CENTS'),
    paymentProvider: e('BLOCKCATCH_PAYMENT_PROVIDER') as GatewayConfigInput['paymentProvider'],
    stripe: {
      secretKey: e('STRIPE_SECRET_KEY'),
      webhookSecret: e('STRIPE_WEBHOOK_SECRET'),
      baseUrl: e('STRIPE_BASE_URL') ?? 'https://api.stripe.com',
    },
  };
}

/** `on`/`off` (or true/false, 1/0); anything else is left for the schema to refuse. */
function onOff(value: string | undefined): boolean | undefined {
  if (value === undefined) return undefined;
  if (/^(on|true|1|yes)$/i.test(value)) return true;
  if (/^(off|false|0|no)$/i.test(value)) return false;
  return value as unknown as boolean;
}

/** `+15550000000=1,MG…=30`: each sender's segments per second (values are checked by the schema). */
function parseSenderRates(value: string | undefined): Record<string, string> | undefined {
  if (value === undefined) return undefined;
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

/** Validates settings, failing with one line per bad field: its name, its value and the rule. */
export function parseConfig(input: GatewayConfigInput): GatewayConfig {
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
    return result.data;
  }
  const lines = result.error.issues.map((issue) => {
    const field = issue.path.join('.');
    const value = issue.path.reduce<unknown>(
      (v, k) => (v && typeof v === 'object' ? (v as Record<PropertyKey, unknown>)[k] : undefined),
      input,
    );
    const shown = /key|token|secret/i.test(field) ? '(hidden)' : JSON.stringify(value);
    return `${field}: ${shown} is not valid: ${issue.message}`;
  });
  throw new ConfigError(lines.join('\n'));
}

/** The SDK's one ConfigError: a setting that cannot work, named with its fix. */
export { ConfigError };
