// The tuning settings read from the environment: their defaults, and values out of bounds refused
// at start with a line naming the setting.
import { describe, expect, it } from 'vitest';
import { configFromEnv, parseConfig } from './config.js';

const fromEnv = (env: NodeJS.ProcessEnv) => parseConfig(configFromEnv(env));

describe('tuning settings', () => {
  it('default to the documented values', () => {
    expect(fromEnv({})).toMatchObject({
      dbQueueLimit: 500,
      dbPoolSize: 10,
      principalCacheTtlMs: 30_000,
      principalCacheMaxEntries: 10_000,
      goodStandingSweepMs: 60_000,
      invitationLimits: { perDriverPerHour: 3, perDriverPerDay: 10, perHour: 100 },
    });
  });

  it('are read from their variables', () => {
    expect(
      fromEnv({
        BLOCKCATCH_DB_POOL_SIZE: '40',
        BLOCKCATCH_PRINCIPAL_CACHE_TTL_MS: '0',
        BLOCKCATCH_PRINCIPAL_CACHE_MAX_ENTRIES: '500',
        BLOCKCATCH_GOOD_STANDING_SWEEP_MS: '0',
        BLOCKCATCH_INVITES_PER_DRIVER_PER_HOUR: '1',
        BLOCKCATCH_INVITES_PER_DRIVER_PER_DAY: '5',
        BLOCKCATCH_INVITES_PER_HOUR: '20',
      }),
    ).toMatchObject({
      dbPoolSize: 40,
      principalCacheTtlMs: 0,
      principalCacheMaxEntries: 500,
      goodStandingSweepMs: 0,
      invitationLimits: { perDriverPerHour: 1, perDriverPerDay: 5, perHour: 20 },
    });
  });

  it.each([
    ['BLOCKCATCH_DB_POOL_SIZE', '0', 'dbPoolSize'],
    ['BLOCKCATCH_DB_POOL_SIZE', '501', 'dbPoolSize'],
    ['BLOCKCATCH_PRINCIPAL_CACHE_TTL_MS', '300001', 'principalCacheTtlMs'],
    ['BLOCKCATCH_PRINCIPAL_CACHE_TTL_MS', '-1', 'principalCacheTtlMs'],
    ['BLOCKCATCH_PRINCIPAL_CACHE_MAX_ENTRIES', '0', 'principalCacheMaxEntries'],
    ['BLOCKCATCH_GOOD_STANDING_SWEEP_MS', 'soon', 'goodStandingSweepMs'],
    ['BLOCKCATCH_INVITES_PER_DRIVER_PER_HOUR', '0', 'invitationLimits.perDriverPerHour'],
    ['BLOCKCATCH_INVITES_PER_DRIVER_PER_DAY', 'ten', 'invitationLimits.perDriverPerDay'],
    ['BLOCKCATCH_INVITES_PER_HOUR', '1000001', 'invitationLimits.perHour'],
  ])('refuses %s=%s', (name, value, field) => {
    expect(() => fromEnv({ [name]: value })).toThrow(new RegExp(`^${field}: .* is not valid`, 'm'));
  });
});

describe('message senders', () => {
  const twilio = {
    BLOCKCATCH_MESSAGE_PROVIDER: 'twilio',
    TWILIO_ACCOUNT_SID: 'AC0123',
    TWILIO_AUTH_TOKEN: 'token',
    TWILIO_FROM: '+15550000000',
  };

  it('refuse Twilio without a public URL or a status callback URL, naming both settings', () => {
    expect(() => fromEnv(twilio)).toThrow(/BLOCKCATCH_PUBLIC_URL .* or TWILIO_STATUS_CALLBACK_URL/);
    expect(
      fromEnv({ ...twilio, BLOCKCATCH_PUBLIC_URL: 'https://api.example.com' }).messageProvider,
    ).toBe('twilio');
    expect(
      fromEnv({
        ...twilio,
        TWILIO_STATUS_CALLBACK_URL: 'https://api.example.com/api/webhooks/twilio/status',
      }).messageProvider,
    ).toBe('twilio');
  });

  it('read marketing’s own sender and its share of the pace', () => {
    const config = fromEnv({
      ...twilio,
      BLOCKCATCH_PUBLIC_URL: 'https://api.example.com',
      TWILIO_MARKETING_SENDER: '+15550000009',
      BLOCKCATCH_MARKETING_PACE_PERCENT: '50',
    });
    expect(config.twilio.marketingSender).toBe('+15550000009');
    expect(config.marketingPacePercent).toBe(50);
    expect(fromEnv({}).marketingPacePercent).toBe(80);
    expect(() => fromEnv({ BLOCKCATCH_MARKETING_PACE_PERCENT: '0' })).toThrow(
      /marketingPacePercent|MARKETING_PACE/,
    );
    expect(() =>
      fromEnv({
        ...twilio,
        BLOCKCATCH_PUBLIC_URL: 'https://a.example',
        TWILIO_MARKETING_SENDER: 'x',
      }),
    ).toThrow(/marketingSender|MARKETING_SENDER/);
  });
});
