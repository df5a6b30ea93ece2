// Builds the gateway from its parts: storage, identity, messaging and the API, on one Fastify app.
import Fastify, { type FastifyError, type FastifyInstance, type RouteOptions } from 'fastify';
import { type Alerts, createAlerts } from './alerts/index.js';
import { registerAlertRoutes } from './alerts/routes.js';
import { authenticateApiToken, registerApiTokenRoutes } from './api/api-tokens.js';
import { createAuthenticator, type Principal } from './api/authenticate.js';
import { registerApi } from './api/routes.js';
import { registerStatusRoutes } from './api/status.js';
import { registerAuditRoutes } from './audit/routes.js';
import { type GatewayConfig, type GatewayConfigInput, parseConfig } from './config.js';
import { registerConsentRoutes } from './consent/routes.js';
import { createDriverService, type DriverService } from './driver/index.js';
import { type AcceptHandles, addAcceptHandles } from './http/accept-handles.js';
import { registerApiDocs } from './http/api-docs.js';
import { installAudit, recordAudit } from './http/audit.js';
import { closeConnectionsOnClose } from './http/closing-connections.js';
import { type CallerCountingDb, countCallers } from './http/db-callers.js';
import { registerEdge } from './http/edge.js';
import {
  createMetrics,
  instrumentGateway,
  type Metrics,
  registerMetricsRoute,
} from './http/metrics.js';
import { installPipeline } from './http/pipeline.js';
import { cachePrincipals } from './http/principal-cache.js';
import { describeRequestForLog } from './http/request-log.js';
import { installSecurityHeaders } from './http/security-headers.js';
import { createIdentity } from './identity/index.js';
import type { Identity } from './identity/types.js';
import { createMessaging, type Messaging } from './messaging/index.js';
import { createPayments, type Payments } from './payments/index.js';
import { registerReferralRoutes } from './referrals/routes.js';
import { type SeedReport, seedFixtures } from './seed.js';
import { type Db, openDatabase } from './storage/db.js';
import { type DatabaseAvailability, watchAvailability } from './storage/db-availability.js';
import { migrate } from './storage/migrate.js';
import { findUserByPhone } from './storage/users.js';
import { registerSupportRoutes } from './support/routes.js';
import { registerWebApp } from './web.js';

export const BODY_LIMIT = 5 * 1024 * 1024;

export interface Gateway {
  app: FastifyInstance;
  /** The database, counting the requests that wait for it (its `queueDepth`). */
  db: CallerCountingDb;
  /** Whether the database can be reached now (health says `degraded` while it cannot). */
  availability: DatabaseAvailability;
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
  /** True once a shutdown has begun: ready fails and health says `draining`. */
  draining(): boolean;
  /**
   * Shuts down gracefully: ready fails at once, requests are served as before for `drainMs` (so
   * balancers stop sending), then the server stops accepting, answers `Connection: close` on kept
   * connections and finishes every request it accepted, while the workers stop at a safe point (a
   * claimed batch finished or released); then the database closes.
   */
  drain(drainMs: number): Promise<void>;
  /** `drain(0)`: stops the server, the workers and the database without a drain period. */
  close(): Promise<void>;
  /**
   * Stops the background workers (the send worker, the catcher and the sandbox platform, the alert
   * and billing sweeps) at a safe point; the server goes on answering. `drain` stops them too.
   */
  stopWorkers(): Promise<void>;
  /**
   * Listens on `host` and `port` with the configured backlog, accepting on `acceptDescriptors`
   * descriptors of the socket (docs/operations.md); resolves to the port (useful with port 0).
   */
  listen(host: string, port: number): Promise<number>;
}

export async function buildGateway(
  /** Settings, or a config parseConfig already validated (not validated again). */
  input: GatewayConfigInput | GatewayConfig,
  options: {
    db?: Db;
    /** Where log lines go instead of stdout (tests capture them to check what is logged). */
    logStream?: { write(line: string): void };
    /** The clock messaging judges quiet hours by (tests set the hour). */
    messagingClock?: () => number;
    /** The clock invitation limits count by (tests move it across hours and days). */
    invitationClock?: () => number;
    /** The clock billing runs by: renewals, retries, webhook ages (tests move it ahead). */
    paymentsClock?: () => number;
  } = {},
): Promise<Gateway> {
  const config = parseConfig(input);
  const app = Fastify({
    bodyLimit: BODY_LIMIT,
    // While closing, a request on a kept-alive connection is served with `Connection: close`
    // rather than refused with Fastify's bare 503: a balancer that does not retry would show it.
    return503OnClosing: false,
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
            serializers: { err: describeErrorForLog, req: describeRequestForLog },
            ...(options.logStream ? { stream: options.logStream } : {}),
          },
  });
  const opened =
    options.db ??
    (await openDatabase(
      config.databaseUrl
        ? {
            kind: 'postgres',
            url: config.databaseUrl,
            schema: config.databaseSchema,
            maxConnections: config.dbPoolSize,
            applicationName: config.dbApplicationName,
            connectTimeoutMs: config.dbConnectTimeoutMs,
            onConnectionError: (error) =>
              app.log.warn(
                { err: { type: error.name, code: (error as { code?: string }).code } },
                'a database connection was lost; the pool opens another',
              ),
          }
        : { kind: 'pglite', dataDir: config.dataDir },
    ));
  const watched = watchAvailability(opened, { log: app.log });
  const availability = watched.availability;
  // Backpressure counts the requests waiting for it, so every part of the gateway shares this one.
  const db = countCallers(watched.db);
  await migrate(db);

  const metrics = createMetrics();
  const messaging = createMessaging({
    db,
    config,
    log: app.log,
    metrics,
    ...(options.messagingClock ? { now: options.messagingClock } : {}),
  });
  const identity: Identity = await createIdentity({
    db,
    config,
    sendCode: (phoneNumber, text) =>
      messaging.deliverNow({ channel: 'sms', to: phoneNumber, body: text }),
    // Staff signing in enter the admin area: the trail keeps who, when and from where.
    onSignIn: async (idToken, ip) => {
      const claims = await identity.verifyIdToken(idToken);
      const user = await findUserByPhone(db, 'flex', claims.phone_number);
      if (user?.is_admin) {
        await recordAudit(db, { claims, user }, { action: 'admin.sign-in', ip, ts: Date.now() });
      }
    },
  });
  // First of all hooks, so it counts every request a connection sends, refused ones included.
  const connections = closeConnectionsOnClose(app);
  // The copies of the listening socket stop accepting with the server's own, and the close waits
  // for the connections they accepted as it does for its own.
  let acceptHandles: AcceptHandles | null = null;
  app.addHook('preClose', (done) => {
    void acceptHandles?.close();
    done();
  });
  app.addHook('onClose', async () => {
    await acceptHandles?.close();
  });
  installSecurityHeaders(app, config);
  instrumentGateway(app, metrics, db);
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
  const authenticate = createAuthenticator(db, identity, principals.principalFor, (token) =>
    authenticateApiToken(db, token, Date.now()),
  );
  const routes = installPipeline(app, authenticate, {
    db,
    queueLimit: config.dbQueueLimit,
    availability,
  });
  installAudit(app, { db, now: Date.now });
  let draining = false;
  await registerApiDocs(app, config.versionId);
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
    metrics,
  });

  registerStatusRoutes(app, { config, availability, draining: () => draining });
  identity.registerRoutes(app);
  messaging.registerRoutes(app);
  registerApi(app, { db, config });
  registerApiTokenRoutes(app, { db, now: Date.now });
  driver.registerRoutes(app);
  registerAlertRoutes(app, { db });
  registerConsentRoutes(app, { db, now: Date.now });
  registerAuditRoutes(app, { db });
  const payments = createPayments({
    db,
    config,
    log: app.log,
    ...(options.paymentsClock ? { now: options.paymentsClock } : {}),
    onPaymentFailed: (payment) =>
      alerts.report(payment.user_id, {
        kind: 'payment-failed',
        paymentId: payment.id,
        amountCents: payment.amount_cents,
      }),
  });
  payments.registerRoutes(app);
  registerReferralRoutes(app, {
    db,
    config,
    enqueue: messaging.enqueue,
    ...(options.invitationClock ? { now: options.invitationClock } : {}),
  });
  registerSupportRoutes(app, { db, config, enqueue: messaging.enqueue });
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

  const stopWorkers = async () => {
    payments.stop();
    await Promise.all([driver.stop(), alerts.stop(), messaging.stop()]);
  };
  let drained: Promise<void> | null = null;
  const drain = async (drainMs: number) => {
    draining = true;
    if (drainMs > 0) await new Promise((resolve) => setTimeout(resolve, drainMs));
    connections.begin();
    await Promise.all([app.close(), stopWorkers()]);
    await edge.close();
    availability.close();
    if (!options.db) await db.close();
  };

  return {
    app,
    db,
    availability,
    config,
    identity,
    messaging,
    driver,
    alerts,
    payments,
    seed,
    metrics,
    routes,
    draining: () => draining,
    drain(drainMs) {
      drained ??= drain(drainMs);
      return drained;
    },
    close() {
      drained ??= drain(0);
      return drained;
    },
    stopWorkers,
    async listen(host, port) {
      await app.listen({ host, port, backlog: config.listenBacklog });
      acceptHandles = await addAcceptHandles(
        app.server,
        config.acceptDescriptors - 1,
        config.listenBacklog,
      );
      // A close begun while the copies were being made has already passed its hooks.
      if (draining) void acceptHandles.close();
      if (acceptHandles.added < config.acceptDescriptors - 1) {
        app.log.warn(
          `accepting on ${acceptHandles.added + 1} of ${config.acceptDescriptors} descriptors: the helper process that copies the listening socket did not start or answer`,
        );
      }
      const address = app.server.address();
      return typeof address === 'object' && address ? address.port : port;
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
