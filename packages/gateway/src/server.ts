// Builds the gateway from its parts: storage, identity, messaging and the API, on one Fastify app.
import Fastify, { type FastifyInstance } from 'fastify';
import { createAuthenticator } from './api/authenticate.js';
import { registerApi } from './api/routes.js';
import { type GatewayConfig, type GatewayConfigInput, parseConfig } from './config.js';
import { installErrorHandler } from './http/errors.js';
import { createIdentity } from './identity/index.js';
import type { Identity } from './identity/types.js';
import { createMessaging, type Messaging } from './messaging/index.js';
import { type Db, openDatabase } from './storage/db.js';
import { migrate } from './storage/migrate.js';

export const BODY_LIMIT = 5 * 1024 * 1024;

export interface Gateway {
  app: FastifyInstance;
  db: Db;
  config: GatewayConfig;
  identity: Identity;
  messaging: Messaging;
  /** Stops the send worker, the HTTP server and the database, in that order. */
  close(): Promise<void>;
}

export async function buildGateway(
  input: GatewayConfigInput,
  options: { db?: Db } = {},
): Promise<Gateway> {
  const config = parseConfig(input);
  const db =
    options.db ??
    (await openDatabase(
      config.databaseUrl
        ? { kind: 'postgres', url: config.databaseUrl, schema: config.databaseSchema }
        : { kind: 'pglite', dataDir: config.dataDir },
    ));
  await migrate(db);

  const app = Fastify({
    bodyLimit: BODY_LIMIT,
    logger:
      config.logLevel === 'silent'
        ? false
        : {
            level: config.logLevel,
            // Tokens and codes must never reach the logs.
            redact: ['req.headers.authorization', 'req.headers.cookie'],
          },
  });
  installErrorHandler(app);

  const messaging = createMessaging({ db, config, log: app.log });
  const identity = await createIdentity({
    db,
    config,
    sendCode: (phoneNumber, text) =>
      messaging.deliverNow({ channel: 'sms', to: phoneNumber, body: text }),
  });
  const authenticate = createAuthenticator(db, identity);

  identity.registerRoutes(app);
  messaging.registerRoutes(app, authenticate);
  registerApi(app, { db, config, authenticate });

  await app.ready();
  messaging.start();

  return {
    app,
    db,
    config,
    identity,
    messaging,
    async close() {
      await messaging.stop();
      await app.close();
      if (!options.db) await db.close();
    },
  };
}
