// What every command that talks to the gateway shares: the profile, the gateway URL, the signed-in
// session in the profile's file, and the client. Built once per run, closed at the end.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import {
  createAuth,
  createGatewayClient,
  SANDBOX_CLIENT_ID,
  SANDBOX_USER_POOL_ID,
} from '@blockcatch/sdk';
import { configDir, createFileSessionStore, createUndiciTransport } from '@blockcatch/sdk/node';
import type { GlobalOptions } from './global-options.js';

export interface Context {
  profile: string;
  gatewayUrl: string;
  auth: ReturnType<typeof createAuth>;
  client: ReturnType<typeof createGatewayClient>;
  /** `<config dir>/<profile>/`, created on first use: the send journal lives here. */
  profileDir(): string;
  close(): Promise<void>;
}

export function createContext(options: GlobalOptions, env = process.env): Context {
  const storage = createFileSessionStore({ profile: options.profile, env });
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
    auth,
    transport,
    ...(env.BLOCKCATCH_RESPONSE_KEY ? { responseKey: env.BLOCKCATCH_RESPONSE_KEY } : {}),
  });
  return {
    profile: options.profile,
    gatewayUrl: options.gateway,
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
