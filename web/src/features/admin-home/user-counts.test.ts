import type { FlexUser } from '@blockcatch/sdk';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { countUsers } from './user-counts.js';

const user = (
  status: 'start' | 'stop',
  goodStanding: boolean,
  proxyInstalled: boolean,
): FlexUser => ({
  name: 'x',
  phoneNumber: '+13055550101',
  referral: null,
  goodStanding,
  proxyInstalled,
  setupComplete: true,
  createDateTimestamp: 0,
  expirationDate: null,
  expirationDateTimestamp: null,
  stripeExpressId: null,
  status,
  humanRegion: null,
});

describe('countUsers', () => {
  it('counts active as on and in good standing, disconnected as not connected', () => {
    expect(
      countUsers([
        user('start', true, true),
        user('start', false, false),
        user('stop', true, false),
      ]),
    ).toEqual({ registered: 3, active: 1, disconnected: 2, goodStanding: 2 });
  });

  it('never counts more active or disconnected users than registered ones', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.tuple(fc.constantFrom('start' as const, 'stop' as const), fc.boolean(), fc.boolean()),
        ),
        (specs) => {
          const counts = countUsers(specs.map(([s, g, p]) => user(s, g, p)));
          expect(counts.active).toBeLessThanOrEqual(counts.goodStanding);
          expect(counts.disconnected).toBeLessThanOrEqual(counts.registered);
          expect(counts.registered).toBe(specs.length);
        },
      ),
    );
  });
});
