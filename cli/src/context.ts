// What every command that talks to the gateway shares: the profile, the gateway URL, the signed-in
// session in the profile's file (kept per gateway, so it is never sent to another one) or a
// machine token from BLOCKCATCH_TOKEN, and the client. Built once per run, closed at the end.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import {
  createAuth,
  createGatewayClient,
  SANDBOX_CLIENT_ID,
  SANDBOX_USER_POOL_ID,
} from '@blockcatch/sdk';
import { configDir, createFileSessionStore, createUndiciTransport } from '@blockcatch/sdk/node';
import { UsageError } from './errors.js';
import type { GlobalOptions } from './global-options.js';
import { t } from './i18n.js';

export interface Context {
  profile: string;
  gatewayUrl: string;
  /** How requests are signed: a machine token from BLOCKCATCH_TOKEN, or the profile's session. */
  credential: 'token' | 'session';
  auth: ReturnType<typeof createAuth>;
  client: ReturnType<typeof createGatewayClient>;
  /** `<config dir>/<profile>/`, created on first use: the send journal lives here. */
  profileDir(): string;
  close(): Promise<void>;
}

/** Machine tokens as the gateway issues them (`bct_…`), bounded before anything reads them. */
const MACHINE_TOKEN = /^bct_[A-Za-z0-9_-]{56}$/;

export function createContext(options: GlobalOptions, env = process.env): Context {
  // One session per gateway in the profile's file: signing in to one never signs requests to another.
  const storage = createFileSessionStore({
    profile: options.profile,
    env,
    namespace: new URL(options.gateway).origin,
  });
  const token = env.BLOCKCATCH_TOKEN?.trim();
  if (token !== undefined && token !== '' && (token.length !== 60 || !MACHINE_TOKEN.test(token))) {
    throw new UsageError(t('cli.errors.badToken'));
  }
  const auth = createAuth({
    userPoolId: env.BLOCKCATCH_USER_POOL_ID || SANDBOX_USER_POOL_ID,
    clientId: env.BLOCKCATCH_CLIENT_ID || SANDBOX_CLIENT_ID,
    // The sandbox gateway is also the identity service.
    endpoint: `${options.gateway}/`,
    storage,
    logger: {
      warn: (message) => {
        if (options.verbose) process.stderr.write(`blockcatch: ${message}\n`);
      },
    },
  });
  const transport = createUndiciTransport({ connections: 4 });
  const client = createGatewayClient({
    baseUrl: options.gateway,
    auth: token ? { getIdToken: async () => token } : auth,
    transport,
    ...(env.BLOCKCATCH_RESPONSE_KEY ? { responseKey: env.BLOCKCATCH_RESPONSE_KEY } : {}),
  });
  return {
    profile: options.profile,
    gatewayUrl: options.gateway,
    credential: token ? 'token' : 'session',
    auth,
    client,
    profileDir() {
      const dir = join(configDir(env), options.profile);
      mkdirSync(dir, { recursive: true, mode: 0o700 });
      return dir;
    },
    async close() {
      auth.dispose();
      await transport.close();
    },
  };
}
