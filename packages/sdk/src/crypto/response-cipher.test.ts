// The response cipher: what the gateway encrypts the client reads back, and nothing else.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  decryptResponse,
  encryptResponse,
  parseResponseKey,
  ResponseCipherError,
} from './response-cipher.js';

const HEX_KEY = '000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f';
const key = parseResponseKey(HEX_KEY);

describe('response cipher', () => {
  it('decrypts to the exact JSON text it encrypted, for any text', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ unit: 'grapheme', maxLength: 300 }), async (text) => {
        const json = JSON.stringify({ Items: [text] });
        expect(await decryptResponse(await encryptResponse(json, key), key)).toBe(json);
      }),
      { numRuns: 200 },
    );
  });

  it('lays out the payload as iv (12) | ciphertext | tag (16) in base64', async () => {
    const payload = await encryptResponse('{"a":1}', key);
    expect(atob(payload).length).toBe(12 + 7 + 16);
  });

  it('uses a fresh iv each time, so two encryptions of one table differ', async () => {
    const a = await encryptResponse('{"Items":[]}', key);
    const b = await encryptResponse('{"Items":[]}', key);
    expect(a).not.toBe(b);
  });

  it('refuses any payload with a flipped bit, with a clear error', async () => {
    const payload = await encryptResponse('{"Items":[{"name":"Ana"}]}', key);
    const bytes = Uint8Array.from(atob(payload), (c) => c.charCodeAt(0));
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: bytes.length - 1 }),
        fc.integer({ min: 0, max: 7 }),
        async (index, bit) => {
          const tampered = bytes.slice();
          tampered[index]! ^= 1 << bit;
          const text = btoa(String.fromCharCode(...tampered));
          await expect(decryptResponse(text, key)).rejects.toThrow(/integrity check/);
        },
      ),
      { numRuns: 50 },
    );
  });

  it('refuses a payload encrypted with another key', async () => {
    const other = parseResponseKey(btoa(String.fromCharCode(...new Uint8Array(32).fill(7))));
    const payload = await encryptResponse('{"Items":[]}', other);
    await expect(decryptResponse(payload, key)).rejects.toBeInstanceOf(ResponseCipherError);
  });

  it('refuses a payload too short to hold an iv and a tag', async () => {
    await expect(decryptResponse('AAAA', key)).rejects.toThrow(/iv \(12 bytes\)/);
    await expect(decryptResponse('not base64!', key)).rejects.toThrow(/iv \(12 bytes\)/);
  });

  it('encrypts a multi-megabyte table and reads it back', async () => {
    const json = JSON.stringify({ Items: Array.from({ length: 20_000 }, (_, i) => ({ i })) });
    expect(json.length).toBeGreaterThan(100_000);
    expect(await decryptResponse(await encryptResponse(json, key), key)).toBe(json);
  });
});

describe('parseResponseKey', () => {
  it('reads the same 32 bytes from hex, base64 and url-safe base64', () => {
    const b64 = btoa(String.fromCharCode(...key));
    expect(parseResponseKey(b64)).toEqual(key);
    expect(
      parseResponseKey(b64.replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')),
    ).toEqual(key);
    expect(parseResponseKey(HEX_KEY.toUpperCase())).toEqual(key);
  });

  it('names the expected length when the key is the wrong size', () => {
    expect(() => parseResponseKey(btoa('sixteen bytes!!!'))).toThrow(/32 bytes/);
    expect(() => parseResponseKey('abc')).toThrow(/64 hex digits/);
    expect(() => parseResponseKey('')).toThrow(ResponseCipherError);
  });
});
