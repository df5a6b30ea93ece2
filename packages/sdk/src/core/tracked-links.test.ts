import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { segmentSms } from './sms.js';
import {
  findLinks,
  isLinkCode,
  LINK_CODE_LENGTH,
  replaceLinks,
  shortLink,
  withSampleLinks,
} from './tracked-links.js';

const BASE = 'https://bc.example';

describe('findLinks', () => {
  it('finds http and https addresses and leaves sentence punctuation out of them', () => {
    const text =
      'Renew at https://blockcatch.app/renew?w=2. Or (see http://x.example/a_(b)) and www.no.example';
    expect(findLinks(text).map((l) => l.url)).toEqual([
      'https://blockcatch.app/renew?w=2',
      'http://x.example/a_(b)',
    ]);
  });

  it('leaves other schemes and unparsable addresses as text', () => {
    expect(findLinks('ftp://a.example mailto:a@b.example https:// https://[nope')).toEqual([]);
  });

  it('finds in linear time what a long run of URL characters holds', () => {
    const started = performance.now();
    findLinks(`https://${'a'.repeat(100_000)}${')'.repeat(20_000)}`);
    expect(performance.now() - started).toBeLessThan(2000);
  });
});

describe('replaceLinks', () => {
  it('keeps every character outside the addresses, whatever the text', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.string(), fc.webUrl())), (parts) => {
        const text = parts.join(' ');
        const out = replaceLinks(text, () => '§');
        expect(out.replaceAll('§', '')).toBe(
          findLinks(text).reduceRight((t, l) => t.slice(0, l.start) + t.slice(l.end), text),
        );
      }),
    );
  });

  it('measures the same segments with sample codes as with any real ones', () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(fc.string(), fc.webUrl())),
        fc.stringMatching(/^[0-9A-Za-z]{8}$/),
        (parts, code) => {
          const text = parts.join(' ');
          const real = replaceLinks(text, () => shortLink(BASE, code));
          expect(segmentSms(real)).toEqual(segmentSms(withSampleLinks(text, BASE)));
        },
      ),
    );
  });
});

describe('isLinkCode', () => {
  it('accepts exactly eight letters and digits', () => {
    expect(isLinkCode('aZ09bY18')).toBe(true);
    for (const bad of ['aZ09bY1', 'aZ09bY189', 'aZ09bY1-', '../etc/p', 'aZ09bY1é', '']) {
      expect(isLinkCode(bad)).toBe(false);
    }
    expect(LINK_CODE_LENGTH).toBe(8);
  });
});
