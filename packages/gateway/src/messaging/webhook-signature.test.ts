import { describe, expect, it } from 'vitest';
import {
  signOutboxWebhook,
  twilioSignature,
  verifyWebhookSignature,
  webhookUrl,
} from './webhook-signature.js';

const TOKEN = '12345';
const SECRET = 'sandbox-webhook-secret';
const config = {
  twilio: { authToken: TOKEN, baseUrl: 'https://api.twilio.com' },
  webhookSecret: SECRET,
};

describe("Twilio's request signature", () => {
  // The example from Twilio's signature-validation documentation.
  const url = 'https://mycompany.com/myapp.php?foo=1&bar=2';
  const params = {
    CallSid: 'CA1234567890ABCDE',
    Caller: '+14158675310',
    Digits: '1234',
    From: '+14158675310',
    To: '+18005551212',
  };
  const verify = (
    signature: string | undefined,
    overrides: { url?: string; params?: Record<string, string>; token?: string } = {},
  ) =>
    verifyWebhookSignature({
      provider: 'twilio',
      url: overrides.url ?? url,
      params: overrides.params ?? params,
      headers: signature === undefined ? {} : { 'x-twilio-signature': signature },
      config: { ...config, twilio: { ...config.twilio, authToken: overrides.token ?? TOKEN } },
    });

  it("matches Twilio's documented example", () => {
    expect(twilioSignature(TOKEN, url, params)).toBe('GvWf1cFY/Q7PnoempGyD5oXAezc=');
    expect(verify('GvWf1cFY/Q7PnoempGyD5oXAezc=')).toBe(true);
  });

  it('refuses a signature for other parameters, another URL, another token or another length', () => {
    const good = twilioSignature(TOKEN, url, params);
    expect(verify(good, { params: { ...params, Digits: '9' } })).toBe(false);
    expect(verify(good, { url: `${url}&x=1` })).toBe(false);
    expect(verify(good, { token: '54321' })).toBe(false);
    expect(verify(good.slice(1))).toBe(false);
    expect(verify(undefined)).toBe(false);
    expect(verify('')).toBe(false);
  });

  it('accepts the URL signed with or without the standard port, as Twilio may send either', () => {
    const withPort = twilioSignature(
      TOKEN,
      'https://mycompany.com:443/myapp.php?foo=1&bar=2',
      params,
    );
    expect(verify(withPort)).toBe(true);
    const withoutPort = twilioSignature(TOKEN, url, params);
    expect(verify(withoutPort, { url: 'https://mycompany.com:443/myapp.php?foo=1&bar=2' })).toBe(
      true,
    );
  });

  it('refuses everything when no auth token is configured', () => {
    const signature = twilioSignature('', url, params);
    expect(
      verifyWebhookSignature({
        provider: 'twilio',
        url,
        params,
        headers: { 'x-twilio-signature': signature },
        config: { twilio: { baseUrl: 'https://api.twilio.com' } },
      }),
    ).toBe(false);
  });
});

describe("the outbox provider's signature", () => {
  const url = 'http://127.0.0.1:8787/api/webhooks/twilio/inbound';
  const params = { From: '+15551230001', Body: 'STOP' };
  const verify = (signature: string, secret: string | null = SECRET) =>
    verifyWebhookSignature({
      provider: 'outbox',
      url,
      params,
      headers: { 'x-blockcatch-signature': signature },
      config: { twilio: config.twilio, ...(secret === null ? {} : { webhookSecret: secret }) },
    });

  it('accepts an HMAC-SHA256 made with the sandbox secret', () => {
    expect(verify(signOutboxWebhook(SECRET, url, params))).toBe(true);
  });

  it('refuses another secret, other parameters, a Twilio signature, or any request without a secret', () => {
    expect(verify(signOutboxWebhook('another-secret-value', url, params))).toBe(false);
    expect(verify(signOutboxWebhook(SECRET, url, { ...params, Body: 'START' }))).toBe(false);
    expect(verify(twilioSignature(SECRET, url, params))).toBe(false);
    expect(verify(signOutboxWebhook(SECRET, url, params), null)).toBe(false);
  });
});

describe('the URL a webhook is verified against', () => {
  const request = {
    protocol: 'http' as const,
    host: '10.0.0.5:8787',
    url: '/api/webhooks/twilio/inbound?x=1',
  };
  it('is the public URL plus the path when set, the request URL otherwise', () => {
    expect(webhookUrl(request, { publicUrl: 'https://api.example.com' })).toBe(
      'https://api.example.com/api/webhooks/twilio/inbound?x=1',
    );
    expect(webhookUrl(request, {})).toBe('http://10.0.0.5:8787/api/webhooks/twilio/inbound?x=1');
  });
});
