import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { nextRouteForUser } from './routing.js';

const facts = fc.record({
  phoneVerified: fc.boolean(),
  user: fc.record({
    proxyInstalled: fc.boolean(),
    setupComplete: fc.boolean(),
    goodStanding: fc.boolean(),
  }),
});

describe('nextRouteForUser', () => {
  it('sends an unverified phone to /confirm-account whatever else is true', () => {
    fc.assert(
      fc.property(facts, (f) => {
        fc.pre(!f.phoneVerified);
        expect(nextRouteForUser(f)).toBe('/confirm-account');
      }),
    );
  });

  it('checks connection, then filters, then payment, in that order', () => {
    const user = { proxyInstalled: false, setupComplete: false, goodStanding: false };
    expect(nextRouteForUser({ phoneVerified: true, user })).toBe('/flex/login');
    expect(nextRouteForUser({ phoneVerified: true, user: { ...user, proxyInstalled: true } })).toBe(
      '/flex/settings',
    );
    expect(
      nextRouteForUser({
        phoneVerified: true,
        user: { ...user, proxyInstalled: true, setupComplete: true },
      }),
    ).toBe('/payment');
  });

  it('lands on the dashboard exactly when every step is done', () => {
    fc.assert(
      fc.property(facts, (f) => {
        const done =
          f.phoneVerified && f.user.proxyInstalled && f.user.setupComplete && f.user.goodStanding;
        expect(nextRouteForUser(f) === '/flex/dashboard').toBe(done);
      }),
    );
  });
});
