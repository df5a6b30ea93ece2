// Attacks on connecting a delivery account: guessing the platform's one-time code over several
// sign-ins, and using the sign-in to text a phone over and over.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  addDriver,
  type DriverGateway,
  lastPlatformCode,
  startDriverGateway,
} from './driver-harness.js';

let running: DriverGateway;

beforeAll(async () => {
  running = await startDriverGateway();
});

afterAll(async () => {
  await running?.close();
});

const wrongCode = (code: string) => (code === '000000' ? '111111' : '000000');

describe('the delivery-platform code', () => {
  it('allows 5 wrong guesses per driver per hour, counted across sign-ins', async () => {
    const phone = '+15125550181';
    const driver = await addDriver(running, phone);
    const signIn = async () =>
      (await driver.post('/platform/sign-in', { email: 'guess@example.com', password: 'pw-1' }))
        .body.challengeId as string;
    let challengeId = await signIn();
    for (let i = 0; i < 3; i++) {
      const code = wrongCode(await lastPlatformCode(running, phone));
      expect((await driver.post('/platform/verify', { challengeId, code })).status).toBe(422);
    }
    challengeId = await signIn();
    for (let i = 0; i < 2; i++) {
      const code = wrongCode(await lastPlatformCode(running, phone));
      expect((await driver.post('/platform/verify', { challengeId, code })).status).toBe(422);
    }
    challengeId = await signIn();
    const right = await driver.post('/platform/verify', {
      challengeId,
      code: await lastPlatformCode(running, phone),
    });
    expect(right.status).toBe(429);
    expect(right.body.code).toBe('rate_limited');
    expect(Number(right.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await driver.get('/user')).body.Item.proxyInstalled).toBe(false);
  });

  it('texts one phone at most 5 codes per hour', async () => {
    const phone = '+15125550182';
    const driver = await addDriver(running, phone);
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      statuses.push(
        (await driver.post('/platform/sign-in', { email: 'pump@example.com', password: 'pw-1' }))
          .status,
      );
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
  });
});
