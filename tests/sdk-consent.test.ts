// Consent to marketing through the SDK against the real sandbox gateway: the sign-up box (asked
// apart from the terms) is recorded with its version and words in the language shown, the settings
// switch turns marketing on and off with its own words, and the send review leaves out everyone
// without a consent, saying why.
import {
  createAuth,
  createGatewayClient,
  MARKETING_CONSENT_ATTRIBUTE,
  MARKETING_CONSENT_VERSION,
} from '@blockcatch/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import en from '../locales/en.json' with { type: 'json' };
import es from '../locales/es.json' with { type: 'json' };
import {
  adminClient,
  authOptions,
  createAdmin,
  latestCode,
  type Sandbox,
  startSandbox,
} from './sdk-harness.js';

let sandbox: Sandbox;
let admin: Awaited<ReturnType<typeof adminClient>>;
let phoneSeq = 0;
const nextPhone = () => `+1305557${String(2000 + phoneSeq++).padStart(4, '0')}`;
const PASSWORD = 'Newbie-pass-1';

beforeAll(async () => {
  sandbox = await startSandbox({ marketingConsent: true, marketingWeeklyCap: 3 });
  await createAdmin(sandbox.gateway);
  admin = await adminClient(sandbox);
}, 60_000);

afterAll(async () => {
  admin?.auth.dispose();
  await sandbox?.close();
});

/** Signs a new driver up (ticking the marketing box in `consent`'s language, if given) and in. */
async function newDriver(consent?: 'en' | 'es') {
  const auth = createAuth(authOptions(sandbox.gateway, sandbox.url));
  const phone = nextPhone();
  await auth.signUp(phone, PASSWORD, 'Carla Consent', undefined, {
    ...(consent ? { marketingConsent: consent } : {}),
  });
  await auth.confirmSignUp(await latestCode(admin.client, phone));
  const result = await auth.signIn(phone, PASSWORD);
  expect(result.status).toBe('signedIn');
  return { phone, auth, client: createGatewayClient({ baseUrl: sandbox.url, auth }) };
}

describe('marketing consent', () => {
  it('records the sign-up box with its version and words, and the settings switch with its own', async () => {
    const ticked = await newDriver('es');
    const signedUpAt = Date.now();
    const consent = await ticked.client.driver.marketingConsent();
    expect(consent).toMatchObject({
      consented: true,
      method: 'sign-up',
      textVersion: MARKETING_CONSENT_VERSION,
      words: es.auth.register.marketingConsent,
    });
    expect(consent.recordedAt).toBeLessThanOrEqual(signedUpAt);

    const unticked = await newDriver();
    expect(await unticked.client.driver.marketingConsent()).toEqual({
      consented: false,
      recordedAt: null,
      method: null,
      textVersion: null,
      words: null,
    });
    const on = await unticked.client.driver.saveMarketingConsent({
      consented: true,
      language: 'en',
    });
    expect(on).toMatchObject({
      consented: true,
      method: 'settings',
      textVersion: MARKETING_CONSENT_VERSION,
      words: en.flex.marketing.switch,
    });
    const off = await ticked.client.driver.saveMarketingConsent({
      consented: false,
      language: 'es',
    });
    expect(off).toMatchObject({ consented: false, method: 'settings' });
    // Every answer is kept, not only the last.
    const history = await sandbox.gateway.db.query<{ consented: boolean; method: string }>(
      'SELECT consented, method FROM marketing_consent_history WHERE phone_number = $1 ORDER BY id',
      [ticked.phone],
    );
    expect(history).toEqual([
      { consented: true, method: 'sign-up' },
      { consented: false, method: 'settings' },
    ]);

    // The review counts who is left out for no consent: the one who withdrew and a stranger.
    const stranger = nextPhone();
    const preview = await admin.client.sends.preview({
      channel: 'sms',
      message: 'Blocks are open this weekend',
      numbers: [ticked.phone, unticked.phone, stranger].map((number) => ({ number })),
    });
    expect(preview.queued).toBe(1);
    expect(preview.skipped).toEqual([
      { number: ticked.phone, reason: 'no-consent' },
      { number: stranger, reason: 'no-consent' },
    ]);
    for (const driver of [ticked, unticked]) driver.auth.dispose();
  });

  it('refuses a sign-up whose marketing box names a text version it does not know', async () => {
    const phone = nextPhone();
    const response = await fetch(`${sandbox.url}/`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-amz-json-1.1',
        'x-amz-target': 'AWSCognitoIdentityProviderService.SignUp',
      },
      body: JSON.stringify({
        ClientId: sandbox.gateway.config.clientId,
        Username: phone,
        Password: PASSWORD,
        UserAttributes: [
          { Name: 'name', Value: 'Vera Version' },
          { Name: MARKETING_CONSENT_ATTRIBUTE, Value: '1999-01:en' },
        ],
      }),
    });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { message: string }).message).toContain(
      MARKETING_CONSENT_ATTRIBUTE,
    );
    const rows = await sandbox.gateway.db.query('SELECT 1 FROM users WHERE phone_number = $1', [
      phone,
    ]);
    expect(rows).toEqual([]);
  });
});
