// Builds the gateway from its parts: storage, identity, messaging and the API, on one Fastify app.
import Fastify, { type FastifyError, type FastifyInstance, type RouteOptions } from 'fastify';
import { type Alerts, createAlerts } from './alerts/index.js';
import { registerAlertRoutes } from './alerts/routes.js';
import { createAuthenticator, type Principal } from './api/authenticate.js';
import { registerApi } from './api/routes.js';
import { type GatewayConfig, type GatewayConfigInput, parseConfig } from './config.js';
import { createDriverService, type DriverService } from './driver/index.js';
import { registerApiDocs } from './http/api-docs.js';
import { type CallerCountingDb, countCallers } from './http/db-callers.js';
import { registerEdge } from './http/edge.js';
import { createMetrics, type Metrics, registerMetricsRoute } from './http/metrics.js';
import { installPipeline } from './http/pipeline.js';
import { cachePrincipals } from './http/principal-cache.js';
import { createIdentity } from './identity/index.js';
import type { Identity } from './identity/types.js';
import { createMessaging, type Messaging } from './messaging/index.js';
import { createPayments, type Payments } from './payments/index.js';
import { registerReferralRoutes } from './referrals/routes.js';
import { type SeedReport, seedFixtures } from './seed.js';
import { type Db, openDatabase } from './storage/db.js';
import { migrate } from './storage/migrate.js';
import { registerWebApp } from './web.js';

export const BODY_LIMIT = 5 * 1024 * 1024;

export interface Gateway {
  app: FastifyInstance;
  /** The database, counting the requests that wait for it (its `queueDepth`). */
  db: CallerCountingDb;
  config: GatewayConfig;
  identity: Identity;
  messaging: Messaging;
  /** The sandbox delivery platform, the block catcher and the driver endpoints. */
  driver: DriverService;
  /** Texts to drivers when something happens (a block won, searching stopped, money). */
  alerts: Alerts;
  /** Weekly payments (sandbox test cards or Stripe) and the good-standing sweep. */
  payments: Payments;
  /** The Prometheus registry every part registers its metrics into (served at `GET /metrics`). */
  metrics: Metrics;
  /** Every route the app serves, as registered (the hostile-input test walks them). */
  routes: readonly RouteOptions[];
  /** What seeding did on this start (null with `seed: false`): counts and the staff accounts. */
  seed: SeedReport | null;
  /** Stops the send worker, the HTTP server and the database, in that order. */
  close(): Promise<void>;
}

export async function buildGateway(
  input: GatewayConfigInput,
  options: {
    db?: Db;
    /** Where log lines go instead of stdout (tests capture them to check what is logged). */
    logStream?: { write(line: string): void };
    /** The clock messaging judges quiet hours by (tests set the hour). */
    messagingClock?: () => number;
  } = {},
): Promise<Gateway> {
  const config = parseConfig(input);
  const opened =
    options.db ??
    (await openDatabase(
      config.databaseUrl
        ? {
            kind: 'postgres',
            url: config.databaseUrl,
            schema: config.databaseSchema,
            maxConnections: config.dbPoolSize,
          }
        : { kind: 'pglite', dataDir: config.dataDir },
    ));
  // Backpressure counts the requests waiting for it, so every part of the gateway shares this one.
  const db = countCallers(opened);
  await migrate(db);

  const app = Fastify({
    bodyLimit: BODY_LIMIT,
    // Behind a load balancer the client's address comes from X-Forwarded-For, for the limits.
    trustProxy: (_address: string, hop: number) => hop < config.trustProxyHops,
    logger:
      config.logLevel === 'silent'
        ? false
        : {
            level: config.logLevel,
            // Tokens and codes must never reach the logs.
            redact: ['req.headers.authorization', 'req.headers.cookie'],
            // A database error's `detail` and `parameters` quote the values it was given (codes,
            // phone numbers, hashes): only its name, code and message are kept.
            serializers: { err: describeErrorForLog },
            ...(options.logStream ? { stream: options.logStream } : {}),
          },
  });
  const messaging = createMessaging({
    db,
    config,
    log: app.log,
    ...(options.messagingClock ? { now: options.messagingClock } : {}),
  });
  const identity = await createIdentity({
    db,
    config,
    sendCode: (phoneNumber, text) =>
      messaging.deliverNow({ channel: 'sms', to: phoneNumber, body: text }),
  });
  // Before any route: the schema compilers, the body parser and the auth hook apply to all.
  const principals = cachePrincipals<Principal>(db, {
    ttlMs: config.principalCacheTtlMs,
    maxEntries: config.principalCacheMaxEntries,
    versionCheckMs: config.principalVersionCheckMs,
  });
  // A sign-out or a user changed through this process applies to its next request at once; other
  // processes see it within the version interval. onSend runs before the caller has the answer.
  app.addHook('onSend', (request, _reply, payload, done) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') principals.forgetVersions();
    done(null, payload);
  });
  const routes = installPipeline(app, createAuthenticator(db, identity, principals.principalFor), {
    db,
    queueLimit: config.dbQueueLimit,
  });
  await registerApiDocs(app, config.versionId);
  const metrics = createMetrics();
  const edge = await registerEdge(app, { db, config, metrics });
  registerMetricsRoute(app, metrics, config.metricsToken);
  let driver: DriverService | null = null;
  const alerts = createAlerts({
    db,
    config,
    enqueue: messaging.enqueue,
    log: app.log,
    serviceAreas: async () => (driver ? driver.platform.listServiceAreas() : []),
  });
  driver = await createDriverService({
    db,
    config,
    log: app.log,
    sendCode: (phoneNumber, text) =>
      messaging.deliverNow({ channel: 'sms', to: phoneNumber, body: text }),
    onEvent: (userId, event) => alerts.report(userId, event),
  });

  identity.registerRoutes(app);
  messaging.registerRoutes(app);
  registerApi(app, { db, config });
  driver.registerRoutes(app);
  registerAlertRoutes(app, { db });
  const payments = createPayments({
    db,
    config,
    log: app.log,
    onPaymentFailed: (payment) =>
      alerts.report(payment.user_id, {
        kind: 'payment-failed',
        paymentId: payment.id,
        amountCents: payment.amount_cents,
      }),
  });
  payments.registerRoutes(app);
  registerReferralRoutes(app, { db, config, enqueue: messaging.enqueue });
  if (config.webDir) await registerWebApp(app, config.webDir);

  const seed = config.seed
    ? await seedFixtures({
        db,
        identity,
        fixturesDir: config.fixturesDir,
        setUpDrivers: driver.setUpSeededDrivers,
      })
    : null;

  await app.ready();
  messaging.start();
  driver.start();
  payments.start();
  alerts.start();

  return {
    app,
    db,
    config,
    identity,
    messaging,
    driver,
    alerts,
    payments,
    seed,
    metrics,
    routes,
    async close() {
      payments.stop();
      await driver.stop();
      await alerts.stop();
      await messaging.stop();
      await app.close();
      await edge.close();
      if (!options.db) await db.close();
    },
  };
}

function describeErrorForLog(error: FastifyError) {
  return {
    type: error.name,
    message: error.message,
    ...(error.code === undefined ? {} : { code: error.code }),
    ...(error.statusCode === undefined ? {} : { statusCode: error.statusCode }),
    stack: error.stack ?? '',
  };
}
