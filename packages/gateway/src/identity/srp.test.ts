// The SRP math against the client library's own AuthenticationHelper, and modPow by property.
import { createRequire } from 'node:module';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  claimSignature,
  createVerifier,
  formatSrpTimestamp,
  modPow,
  N,
  padHex,
  parseSrpTimestamp,
  passwordMatches,
  serverEphemeral,
  sessionKey,
} from './srp.js';

// The library's internals are CommonJS files without typings; only this test reaches into them.
const require = createRequire(import.meta.url);
const {
  default: AuthenticationHelper,
} = require('amazon-cognito-identity-js/lib/AuthenticationHelper.js');
const { default: BigInteger } = require('amazon-cognito-identity-js/lib/BigInteger.js');
const { default: DateHelper } = require('amazon-cognito-identity-js/lib/DateHelper.js');

describe('SRP-6a as amazon-cognito-identity-js computes it', () => {
  it('derives the same session key and signature on both sides', async () => {
    const { salt, verifier } = createVerifier('Pool01', '+13125550100', 'pa55word!');
    const { b, B } = serverEphemeral(verifier);
    const client = new AuthenticationHelper('Pool01');
    const A = BigInt(`0x${client.largeAValue.toString(16)}`);
    const clientKey: Buffer = await new Promise((resolve, reject) =>
      client.getPasswordAuthenticationKey(
        '+13125550100',
        'pa55word!',
        new BigInteger(B.toString(16), 16),
        new BigInteger(salt, 16),
        (err: Error | null, key: Buffer) => (err ? reject(err) : resolve(key)),
      ),
    );
    const serverKey = sessionKey({ A, B, b, verifierHex: verifier });
    expect(Buffer.from(clientKey).toString('hex')).toBe(serverKey?.toString('hex'));

    const wrongClient = new AuthenticationHelper('Pool01');
    const wrongKey: Buffer = await new Promise((resolve) =>
      wrongClient.getPasswordAuthenticationKey(
        '+13125550100',
        'pa55word?',
        new BigInteger(B.toString(16), 16),
        new BigInteger(salt, 16),
        (_err: Error | null, key: Buffer) => resolve(key),
      ),
    );
    const wrongA = BigInt(`0x${wrongClient.largeAValue.toString(16)}`);
    expect(Buffer.from(wrongKey).toString('hex')).not.toBe(
      sessionKey({ A: wrongA, B, b, verifierHex: verifier })?.toString('hex'),
    );
  });

  it('checks a password by recomputing the verifier', () => {
    const stored = createVerifier('Pool01', '+13125550100', 'pa55word!');
    expect(passwordMatches('Pool01', '+13125550100', 'pa55word!', stored)).toBe(true);
    expect(passwordMatches('Pool01', '+13125550100', 'pa55word', stored)).toBe(false);
    expect(passwordMatches('Pool02', '+13125550100', 'pa55word!', stored)).toBe(false);
  });

  it('pads hex like the library: even length, 00 before a set top bit', () => {
    expect(padHex(0x14n)).toBe('14');
    expect(padHex(0xecn)).toBe('00ec');
    expect(padHex(0x1n)).toBe('01');
    expect(padHex(N).startsWith('00ff')).toBe(true);
    // One helper: constructing it computes the client's A, which is the slow part.
    const helper = new AuthenticationHelper('P');
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 2n ** 300n }), (v) => {
        return padHex(v) === helper.padHex(new BigInteger(v.toString(16), 16));
      }),
      { numRuns: 200 },
    );
  });

  it('modPow agrees with repeated multiplication for any small base, exponent and modulus', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 0n, max: 10n ** 12n }),
        fc.integer({ min: 0, max: 300 }),
        fc.bigInt({ min: 1n, max: 10n ** 9n }),
        (base, exp, mod) => {
          let expected = 1n % mod;
          for (let i = 0; i < exp; i++) expected = (expected * base) % mod;
          return modPow(base, BigInt(exp), mod) === expected;
        },
      ),
    );
  });

  it('formats and reads TIMESTAMP exactly as the library writes it', () => {
    const now = new DateHelper().getNowString();
    const parsed = parseSrpTimestamp(now);
    expect(parsed).not.toBeNull();
    expect(Math.abs(parsed! - Date.now())).toBeLessThan(2000);
    expect(formatSrpTimestamp(parsed!)).toBe(now);
    expect(formatSrpTimestamp(Date.UTC(2026, 10, 23, 3, 40, 0))).toBe(
      'Mon Nov 23 03:40:00 UTC 2026',
    );
    expect(parseSrpTimestamp('2026-11-23T03:40:00Z')).toBeNull();
  });

  it('signs the claim with the key over pool name, user, secret block and timestamp', () => {
    const key = Buffer.alloc(16, 7);
    const base = { key, poolName: 'P', userIdForSrp: 'u', secretBlock: 'AAAA', timestamp: 't' };
    expect(claimSignature(base)).not.toBe(claimSignature({ ...base, timestamp: 'T' }));
    expect(claimSignature(base)).toMatch(/^[A-Za-z0-9+/]{43}=$/);
  });
});
