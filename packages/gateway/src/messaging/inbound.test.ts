import { describe, expect, it } from 'vitest';
import { KEYWORD_ANSWERS } from './inbound.js';

describe('keyword answers', () => {
  it('exist in both languages for every intent, and say how to undo or get help', () => {
    for (const texts of Object.values(KEYWORD_ANSWERS)) {
      expect(Object.keys(texts).sort()).toEqual(['help', 'opt-in', 'opt-out', 'opt-out-marketing']);
      expect(texts['opt-out-marketing']).toContain('{account}');
    }
    expect(KEYWORD_ANSWERS.es.help).toContain('7 am a 10 pm EST');
    expect(KEYWORD_ANSWERS.en.help).toContain('7 am to 10 pm EST');
  });
});
