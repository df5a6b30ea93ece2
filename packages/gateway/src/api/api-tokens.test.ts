// A token's id is typed on command lines (`blockcatch auth token revoke ID`): it never starts with
// `-`, which the command line would read as an option.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { newTokenId } from './api-tokens.js';

describe('newTokenId', () => {
  it('answers 12 base64url characters that never start with a dash, drawing again when needed', () => {
    fc.assert(
      fc.property(
        fc.array(fc.uint8Array({ minLength: 9, maxLength: 9 }), { minLength: 1, maxLength: 5 }),
        (draws) => {
          // The first byte 0xf8 makes the first character `-`; every draw but the last gets it.
          const sequence = draws.map((bytes, i) => {
            const copy = Buffer.from(bytes);
            if (i < draws.length - 1) copy[0] = 0xf8;
            else copy[0] = copy[0]! & 0x7f;
            return copy;
          });
          let calls = 0;
          const id = newTokenId((size) => {
            expect(size).toBe(9);
            return sequence[calls++]!;
          });
          expect(calls).toBe(draws.length);
          expect(id).toBe(sequence.at(-1)!.toString('base64url'));
          expect(id).toMatch(/^[A-Za-z0-9_][A-Za-z0-9_-]{11}$/);
        },
      ),
    );
  });
});
