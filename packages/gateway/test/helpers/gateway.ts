// Starts the whole gateway (buildGateway) on 127.0.0.1:0 with the test people, and signs each staff
// member in through the user pool for a real id token.

import type { GatewayConfigInput } from '../../src/config.js';
import { buildGateway, type Gateway } from '../../src/server.js';
import { insertPeople, staff } from './people.js';
import { signIn } from './sign-in.js';

export interface RunningGateway {
  gateway: Gateway;
  url: string;
  /** Id tokens by staff phone number. */
  tokens: Map<string, string>;
  /** The Authorization header of a signed-in staff member, as the web client sends it. */
  as(phoneNumber: string): { authorization: string };
}

export async function startGateway(
  config: Partial<GatewayConfigInput> = {},
  options: Parameters<typeof buildGateway>[1] = {},
): Promise<RunningGateway> {
  // Quiet hours off: a test must not depend on the hour it runs.
  const gateway = await buildGateway(
    {
      port: 0,
      logLevel: 'silent',
      seed: false,
      quietHours: false,
      // Consent and the weekly cap off: the tests send to made-up numbers, often (tests turn them on).
      marketingConsent: false,
      marketingWeeklyCap: 0,
      // Time-based alerts off: what a test sees must not depend on how long it runs.
      alerts: { sweepMs: 0 },
      // The listening socket alone: no helper process to copy it for each test's gateway.
      acceptDescriptors: 1,
      ...config,
    },
    options,
  );
  await insertPeople(gateway.db);
  for (const member of staff) {
    await gateway.identity.ensureAccount({
      phoneNumber: member.phoneNumber,
      password: member.password,
      name: member.name,
    });
  }
  const url = `http://127.0.0.1:${await gateway.listen('127.0.0.1', 0)}`;
  const tokens = new Map<string, string>();
  for (const member of staff) {
    tokens.set(
      member.phoneNumber,
      await signIn(url, gateway.config.clientId, member.phoneNumber, member.password),
    );
  }
  return {
    gateway,
    url,
    tokens,
    as(phoneNumber) {
      const token = tokens.get(phoneNumber);
      if (!token) throw new Error(`${phoneNumber} is not a signed-in staff member`);
      return { authorization: token };
    },
  };
}
