// The tuning settings read from the environment: their defaults, and values out of bounds refused
// at start with a line naming the setting.
import { describe, expect, it } from 'vitest';
import { configFromEnv, listSettings, parseConfig } from './config.js';

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
    ['BLOCKCATCH_DB_POOL_SIZE', '0'],
    ['BLOCKCATCH_DB_POOL_SIZE', '501'],
    ['BLOCKCATCH_PRINCIPAL_CACHE_TTL_MS', '300001'],
    ['BLOCKCATCH_PRINCIPAL_CACHE_TTL_MS', '-1'],
    ['BLOCKCATCH_PRINCIPAL_CACHE_MAX_ENTRIES', '0'],
    ['BLOCKCATCH_GOOD_STANDING_SWEEP_MS', 'soon'],
    ['BLOCKCATCH_INVITES_PER_DRIVER_PER_HOUR', '0'],
    ['BLOCKCATCH_INVITES_PER_DRIVER_PER_DAY', 'ten'],
    ['BLOCKCATCH_INVITES_PER_HOUR', '1000001'],
  ])('refuses %s=%s, naming the variable', (name, value) => {
    expect(() => fromEnv({ [name]: value })).toThrow(
      new RegExp(`^${name} "${value}" is not valid: `, 'm'),
    );
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
      /^BLOCKCATCH_MARKETING_PACE_PERCENT "0" is not valid/,
    );
    expect(() =>
      fromEnv({
        ...twilio,
        BLOCKCATCH_PUBLIC_URL: 'https://a.example',
        TWILIO_MARKETING_SENDER: 'x',
      }),
    ).toThrow(/^TWILIO_MARKETING_SENDER "x" is not valid/);
  });
});

describe('the settings table', () => {
  it('declares each variable once and reads every one of them', () => {
    const settings = listSettings();
    expect(settings.length).toBeGreaterThan(60);
    const names = settings.flatMap(({ meta }) => [meta.env, ...(meta.also ?? [])]);
    expect(new Set(names).size).toBe(names.length);
    for (const { path, meta } of settings) {
      const input = configFromEnv({ [meta.env]: 'x' }) as Record<string, unknown>;
      const read = path.reduce<unknown>((at, key) => (at as Record<string, unknown>)?.[key], input);
      expect(read, meta.env).toBeDefined();
    }
  });

  it('reads PORT when BLOCKCATCH_PORT is unset, and an empty variable as unset', () => {
    expect(fromEnv({ PORT: '9000' }).port).toBe(9000);
    expect(fromEnv({ PORT: '9000', BLOCKCATCH_PORT: '9001' }).port).toBe(9001);
    expect(fromEnv({ BLOCKCATCH_DB_POOL_SIZE: '' }).dbPoolSize).toBe(10);
  });

  it('names a value refused from a flag by the flag, and says how to fix it', () => {
    const input = configFromEnv({});
    expect(() => parseConfig({ ...input, port: 'eighty' }, new Set(['--port']))).toThrow(
      /^--port "eighty" is not valid: use a whole number from 0 to 65535/,
    );
    expect(() => parseConfig({ ...input, port: 'eighty' })).toThrow(/^BLOCKCATCH_PORT "eighty"/);
  });

  it('hides secrets and URLs in the error line', () => {
    expect(() => fromEnv({ BLOCKCATCH_WEBHOOK_SECRET: 'short-secret' })).toThrow(
      /^BLOCKCATCH_WEBHOOK_SECRET \(hidden\) is not valid/,
    );
    expect(() => fromEnv({ DATABASE_URL: 'mysql://user:pw@db/x' })).toThrow(
      /^DATABASE_URL \(hidden\) is not valid/,
    );
  });
});
