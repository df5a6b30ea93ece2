import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type Answers, type KeyPress, keyIntent, splitKeys } from './flow-keys.js';
import { type FlowState, initialState } from './send-flow-state.js';

const english: Answers = { yes: new Set(['y', 'yes']), no: new Set(['n', 'no']) };
const spanish: Answers = { yes: new Set(['s', 'sí', 'si']), no: new Set(['n', 'no']) };
const at = (step: FlowState['step'], focus: FlowState['focus'] = 'table'): FlowState => ({
  ...initialState(),
  step,
  focus,
});
const printable = fc
  .string({ minLength: 1, maxLength: 4 })
  .filter((s) => /^[\p{L}\p{N} ]+$/u.test(s));

describe('keyIntent', () => {
  it('types every printable key into the search box, commands included', () => {
    fc.assert(
      fc.property(printable, (input) => {
        expect(keyIntent(at('review', 'search'), { input }, english)).toEqual({
          type: 'type',
          text: input,
        });
      }),
    );
  });

  it('ignores every key once the send started or ended', () => {
    const steps = ['sending', 'done', 'cancelled', 'failed'] as const;
    fc.assert(
      fc.property(fc.constantFrom(...steps), printable, fc.boolean(), (step, input, enter) => {
        expect(keyIntent(at(step), { input, return: enter, escape: !enter }, english)).toBeNull();
      }),
    );
  });

  it('reads s as Send in the table and as yes at a Spanish confirmation', () => {
    expect(keyIntent(at('review'), { input: 's' }, spanish)).toEqual({ type: 'send' });
    expect(keyIntent(at('confirm'), { input: 's' }, spanish)).toEqual({ type: 'confirm' });
    expect(keyIntent(at('confirm'), { input: 's' }, english)).toBeNull();
    expect(keyIntent(at('confirm'), { input: '', escape: true }, english)).toEqual({
      type: 'back',
    });
    expect(keyIntent(at('summary'), { input: ' ' }, english)).toBeNull();
    expect(keyIntent(at('summary'), { input: '', return: true }, english)).toEqual({
      type: 'review',
    });
  });
});

describe('splitKeys', () => {
  // Each key as a terminal sends it, beside what it means.
  const KEYS: Array<[string, KeyPress]> = [
    ['\r', { input: '', return: true }],
    ['\t', { input: '', tab: true }],
    ['\x7f', { input: '', backspace: true }],
    ['\x03', { input: 'c', ctrl: true }],
    ['\x1b[A', { input: '', upArrow: true }],
    ['\x1b[B', { input: '', downArrow: true }],
    ['\x1b[C', { input: '', rightArrow: true }],
    ['\x1b[D', { input: '', leftArrow: true }],
    [' ', { input: ' ' }],
    ['s', { input: 's' }],
    ['ñ', { input: 'ñ' }],
    ['😀', { input: '😀' }],
  ];

  it('reads keys that arrived together as the keys typed, in order', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...KEYS), { minLength: 1, maxLength: 12 }), (typed) => {
        expect(splitKeys(typed.map(([sent]) => sent).join(''))).toEqual(
          typed.map(([, key]) => key),
        );
      }),
    );
  });

  it('drops control characters that mean nothing here', () => {
    expect(splitKeys('a\x00\x07b')).toEqual([{ input: 'a' }, { input: 'b' }]);
  });
});
