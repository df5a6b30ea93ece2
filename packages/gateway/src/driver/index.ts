// The driver service: the delivery platform (the sandbox), the block catcher and the driver
// endpoints, built from the gateway's settings and started and stopped with it.

import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { Registry } from 'prom-client';
import type { DriverEvent } from '../alerts/index.js';
import { type Catcher, createCatcher } from '../catcher/index.js';
import type { GatewayConfig } from '../config.js';
import { createCredentialCipher, loadPlatformKey } from '../platform/credential-cipher.js';
import { createSandboxPlatform, type SandboxPlatform } from '../platform/sandbox.js';
import type { Db, Queryable } from '../storage/db.js';
import { registerCalendarFeedRoutes } from './calendar-feed-routes.js';
import { registerInsightRoutes } from './insight-routes.js';
import { registerOutcomeRoutes } from './outcome-routes.js';
import { registerDriverRoutes } from './routes.js';
import { registerSandboxPlatformRoutes } from './sandbox-routes.js';
import { type SeededDriver, setUpSeededDrivers } from './seeded-drivers.js';
import { registerVerificationRoutes } from './verification-routes.js';

export interface DriverService {
  platform: SandboxPlatform;
  catcher: Catcher;
  registerRoutes(app: FastifyInstance): void;
  /** Seeding: links the drivers marked connected and saves filters for those marked set up. */
  setUpSeededDrivers(tx: Queryable, drivers: readonly SeededDriver[], now: number): Promise<void>;
  /** Starts the sandbox's offer generator and the catcher. */
  start(): void;
  /** Clears every timer: the catcher gives its leases back, the generator stops. */
  stop(): Promise<void>;
}

export async function createDriverService(deps: {
  db: Db;
  config: GatewayConfig;
  log: FastifyBaseLogger;
  sendCode(phoneNumber: string, text: string): Promise<void>;
  /** What the driver should hear about (alerts). */
  onEvent?: (userId: string, event: DriverEvent) => void;
  /** Where the catcher's metrics go. */
  metrics?: Registry;
}): Promise<DriverService> {
  const { db, config, log } = deps;
  const { key, source } = await loadPlatformKey(config);
  if (source === 'process' && db.kind === 'postgres') {
    log.warn(
      'BLOCKCATCH_PLATFORM_KEY is not set: platform links made by this process cannot be read by others',
    );
  }
  const cipher = createCredentialCipher(key);
  const sandbox = config.sandboxPlatform;
  const platform = createSandboxPlatform({
    db,
    sendCode: deps.sendCode,
    options: {
      offerIntervalMs: sandbox.offerIntervalMs,
      takenAfterMs: { min: sandbox.takenAfterMinMs, max: sandbox.takenAfterMaxMs },
      maxPollsPerSecond: sandbox.maxPollsPerSecond,
      retryAfterMs: sandbox.retryAfterMs,
      failureRate: sandbox.failureRate,
      sessionTtlMs: sandbox.sessionTtlMs,
      verificationRate: sandbox.verificationRate,
    },
  });
  const catcher = createCatcher({
    db,
    platform,
    cipher,
    log,
    options: {
      ...config.catcher,
      flushMs: 100,
      throttleAlertMinMs: config.alerts.throttleAlertMinMs,
      lostTime: config.lostHours,
    },
    ...(deps.onEvent ? { onEvent: deps.onEvent } : {}),
    ...(deps.metrics ? { metrics: deps.metrics } : {}),
  });
  return {
    platform,
    catcher,
    setUpSeededDrivers: (tx, drivers, now) => setUpSeededDrivers(tx, cipher, drivers, now),
    registerRoutes(app) {
      registerDriverRoutes(app, {
        db,
        platform,
        cipher,
        onDriverChanged: () => catcher.wake(),
        limits: deps.config.identityLimits,
        productTimeZone: deps.config.productTimeZone,
      });
      registerVerificationRoutes(app, {
        db,
        platform,
        cipher,
        onDriverChanged: () => catcher.wake(),
      });
      registerCalendarFeedRoutes(app, { db, platform, publicUrl: config.publicUrl });
      registerOutcomeRoutes(app, { db });
      registerInsightRoutes(app, { db, platform });
      registerSandboxPlatformRoutes(app, platform);
    },
    start() {
      platform.start();
      if (config.catcher.enabled) catcher.start();
    },
    async stop() {
      await catcher.stop();
      await platform.stop();
    },
  };
}
