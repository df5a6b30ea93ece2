import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isEmail, isIdentityPoolId, toInteger } from './validation.js';

const whitespace = fc.constantFrom(' ', '\t', '\n', '\u00a0');
const visible = fc.string({ minLength: 1 }).map((s) => s.replace(/\s/g, '') || 'x');

describe('isEmail', () => {
  it('accepts text, an @, text, a dot and text, and nothing less', () => {
    expect(isEmail('ana@example.com')).toBe(true);
    expect(isEmail('a@b.c')).toBe(true);
    expect(isEmail('a@b.c.d')).toBe(true);
    expect(isEmail('a@@b.c')).toBe(true);
    expect(isEmail('ana@example')).toBe(false);
    expect(isEmail('@example.com')).toBe(false);
    expect(isEmail('ana@.com')).toBe(false);
    expect(isEmail('ana@example.')).toBe(false);
    expect(isEmail('ana maria@example.com')).toBe(false);
    expect(isEmail('')).toBe(false);
  });

  it('accepts any non-space text, an @, non-space text, a dot and non-space text', () => {
    fc.assert(
      fc.property(visible, visible, visible, (local, domain, tld) => {
        expect(isEmail(`${local}@${domain}.${tld}`)).toBe(true);
      }),
    );
  });

  it('decides every string as the plain pattern ^\\S+@\\S+\\.\\S+$ does', () => {
    const plain = /^\S+@\S+\.\S+$/;
    const emailish = fc
      .array(fc.constantFrom('a', '@', '.', ' ', 'é', '\t'), { maxLength: 12 })
      .map((chars) => chars.join(''));
    fc.assert(
      fc.property(fc.oneof(emailish, fc.string()), (s) => {
        expect(isEmail(s)).toBe(plain.test(s));
      }),
      { numRuns: 2000 },
    );
  });

  it('rejects any string holding whitespace', () => {
    fc.assert(
      fc.property(fc.string(), whitespace, fc.string(), (before, space, after) => {
        expect(isEmail(`${before}${space}${after}`)).toBe(false);
      }),
    );
  });

  it('rejects any string without an @ or without a dot', () => {
    fc.assert(
      fc.property(fc.string(), (s) => {
        expect(isEmail(s.replace(/@/g, ''))).toBe(false);
        expect(isEmail(s.replace(/\./g, ''))).toBe(false);
      }),
    );
  });
});

describe('toInteger', () => {
  it('reads strings the way parseInt does and numbers by truncating', () => {
    expect(toInteger('42')).toBe(42);
    expect(toInteger(' 42 ')).toBe(42);
    expect(toInteger('12.7')).toBe(12);
    expect(toInteger('-12.7')).toBe(-12);
    expect(toInteger('12abc')).toBe(12);
    expect(toInteger('1e3')).toBe(1);
    expect(toInteger('0x1A')).toBe(0);
    expect(toInteger('007')).toBe(7);
    expect(toInteger(42)).toBe(42);
    expect(toInteger(12.7)).toBe(12);
    expect(toInteger(-12.7)).toBe(-12);
    expect(toInteger(1e21)).toBe(1e21);
  });

  it('gives an empty string for input with no integer in front', () => {
    for (const input of [
      '',
      '   ',
      'abc',
      '.5',
      '-',
      '+',
      'x12',
      Number.NaN,
      Infinity,
      -Infinity,
    ]) {
      expect(toInteger(input)).toBe('');
    }
  });

  it('never gives negative zero', () => {
    expect(Object.is(toInteger('-0'), 0)).toBe(true);
    expect(Object.is(toInteger(-0.4), 0)).toBe(true);
  });

  it('gives back any safe integer written in decimal, whatever whitespace surrounds it', () => {
    fc.assert(
      fc.property(fc.maxSafeInteger(), whitespace, (n, space) => {
        expect(toInteger(`${space}${n}${space}`)).toBe(n + 0);
      }),
    );
  });

  it('ignores everything after the leading digits', () => {
    fc.assert(
      fc.property(fc.nat(), fc.string(), (n, rest) => {
        expect(toInteger(`${n}${rest.replace(/^\d+/, '')}`)).toBe(n);
      }),
    );
  });

  it('gives an empty string for text that does not start with a digit', () => {
    fc.assert(
      fc.property(fc.string(), (s) => {
        const text = s.replace(/^[\s+-]*\d/, 'x');
        expect(toInteger(text)).toBe('');
      }),
    );
  });

  it('truncates any finite number toward zero', () => {
    fc.assert(
      fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), (x) => {
        const n = toInteger(x);
        expect(typeof n).toBe('number');
        expect(Number.isInteger(n)).toBe(true);
        expect(Math.abs(n as number)).toBeLessThanOrEqual(Math.abs(x));
        expect(Math.abs(x) - Math.abs(n as number)).toBeLessThan(1);
        if (n !== 0) expect(Math.sign(n as number)).toBe(Math.sign(x));
      }),
    );
  });
});

describe('isIdentityPoolId', () => {
  it('accepts region_id ids and refuses other shapes', () => {
    expect(isIdentityPoolId('us-east-1_AbCdEf123')).toBe(true);
    expect(isIdentityPoolId('eu-west-2_x')).toBe(true);
    expect(isIdentityPoolId('us-east-1')).toBe(false);
    expect(isIdentityPoolId('us-east-1_')).toBe(false);
    expect(isIdentityPoolId('_AbCdEf123')).toBe(false);
    expect(isIdentityPoolId('us-east-1_AbC-def')).toBe(false);
    expect(isIdentityPoolId('us east-1_AbCdEf123')).toBe(false);
    expect(isIdentityPoolId('us-east-1:0f1e2d3c-aaaa-bbbb-cccc-0123456789ab')).toBe(false);
    expect(isIdentityPoolId('')).toBe(false);
  });

  it('accepts 55 characters and refuses 56', () => {
    const region = 'us-east-1_';
    expect(isIdentityPoolId(region + 'a'.repeat(55 - region.length))).toBe(true);
    expect(isIdentityPoolId(region + 'a'.repeat(56 - region.length))).toBe(false);
  });

  it('accepts a region of word characters and dashes, an underscore and an alphanumeric id, up to 55 characters', () => {
    const region = fc.stringMatching(/^[a-z0-9-]{1,30}$/);
    const id = fc.stringMatching(/^[A-Za-z0-9]{1,40}$/);
    fc.assert(
      fc.property(region, id, (r, i) => {
        const poolId = `${r}_${i}`;
        expect(isIdentityPoolId(poolId)).toBe(poolId.length <= 55);
      }),
    );
  });

  it('refuses an id holding anything but letters and digits after the last underscore', () => {
    const bad = fc.constantFrom('-', ' ', '.', ':', '/', 'é');
    fc.assert(
      fc.property(fc.stringMatching(/^[A-Za-z0-9]{0,10}$/), bad, (id, c) => {
        expect(isIdentityPoolId(`us-east-1_${id}${c}`)).toBe(false);
      }),
    );
  });
});
