import { describe, expect, it } from 'vitest';
import { AUTOMATED_VISITORS, isAutomatedOpen } from './link-visitors.js';

const PEOPLE = [
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36',
  'Mozilla/5.0 (Linux; Android 13; SM-S918U) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/25.0 Chrome/121.0.0.0 Mobile Safari/537.36',
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:127.0) Gecko/20100101 Firefox/127.0',
];

const MACHINES = [
  'facebookexternalhit/1.1 Facebot Twitterbot/1.0',
  'Twitterbot/1.0',
  'Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)',
  'WhatsApp/2.23.20.0 A',
  'TelegramBot (like TwitterBot)',
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15 (Applebot/0.1; +http://www.apple.com/go/applebot)',
  'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
  'Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)',
  'curl/8.5.0',
  'Mozilla/5.0 (Linux; Android 6.0.1; Nexus 5X Build/MMB29P) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36 (compatible; Google-PageRenderer)',
];

describe('isAutomatedOpen', () => {
  it("counts a person's browser opening the link", () => {
    for (const agent of PEOPLE) expect(isAutomatedOpen('GET', agent)).toBe(false);
  });

  it('does not count link previewers, crawlers and command-line tools', () => {
    for (const agent of MACHINES) expect(isAutomatedOpen('GET', agent)).toBe(true);
  });

  it('does not count a HEAD or an open with no User-Agent', () => {
    expect(isAutomatedOpen('HEAD', PEOPLE[0])).toBe(true);
    expect(isAutomatedOpen('GET', undefined)).toBe(true);
    expect(isAutomatedOpen('GET', '  ')).toBe(true);
  });

  it('keeps its patterns lower-case, so one comparison matches any case', () => {
    for (const fragment of AUTOMATED_VISITORS) expect(fragment).toBe(fragment.toLowerCase());
  });
});
