// Layouts that looked broken on a phone, measured in a real browser at 375 px: the "Send alerts by"
// radios sit beside their words, and the admin user dashboard in Spanish gives values the line's
// width and never breaks a word mid-syllable.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../support/eventually.js';
import {
  type BrowserSandbox,
  DRIVER,
  extendService,
  OWNER,
  overflowsHorizontally,
  settled,
  startBrowserSandbox,
} from './harness.js';

let sandbox: BrowserSandbox;
beforeAll(async () => {
  sandbox = await startBrowserSandbox();
  await extendService(sandbox.gateway, DRIVER.phoneNumber);
});
afterAll(async () => {
  await sandbox?.close();
});

describe('on a phone', () => {
  for (const width of [375, 1366]) {
    it(`puts each "Send alerts by" radio beside its words at ${width} px`, async () => {
      const session = await sandbox.sessionOf(DRIVER);
      const { page } = await sandbox.newPage({ width, storageState: session });
      await page.goto('/flex/settings');
      await settled(page);
      const group = page.getByRole('group', { name: 'Send alerts by' });
      for (const name of ['SMS', 'WhatsApp']) {
        const radio = group.getByRole('radio', { name });
        // The alert settings load after the page's overlay is gone: measure once they are drawn.
        await radio.waitFor();
        await eventually(async () => {
          const circle = (await radio.boundingBox())!;
          const words = (await group.getByText(name, { exact: true }).boundingBox())!;
          // Left of its words, on the same line, and the size of a radio (not stretched).
          expect(circle.x + circle.width).toBeLessThanOrEqual(words.x);
          expect(words.x - (circle.x + circle.width)).toBeLessThan(16);
          expect(
            Math.abs(circle.y + circle.height / 2 - (words.y + words.height / 2)),
          ).toBeLessThan(6);
          expect(circle.width).toBeLessThan(32);
        });
      }
    });
  }

  it('shows the admin user dashboard in Spanish with values the width of the line', async () => {
    const session = await sandbox.sessionOf(OWNER);
    const { page, errors } = await sandbox.newPage({
      width: 375,
      language: 'es',
      storageState: session,
    });
    await page.goto(`/admin/users/${encodeURIComponent(DRIVER.phoneNumber)}/dashboard`);
    await settled(page);
    const values = page.locator('.details-list dd');
    await values.first().waitFor();
    for (const value of await values.all()) {
      const box = (await value.boundingBox())!;
      expect(box.width).toBeGreaterThan(250);
    }
    // No word is split across lines: every line break falls at a space.
    const split = await page.evaluate(() => {
      const broken: string[] = [];
      for (const element of document.querySelectorAll('.details-list dt, .details-list dd')) {
        const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
          const text = node.textContent ?? '';
          const range = document.createRange();
          let lastTop: number | null = null;
          for (let i = 0; i < text.length; i++) {
            range.setStart(node, i);
            range.setEnd(node, i + 1);
            const top = range.getBoundingClientRect().top;
            if (lastTop !== null && top > lastTop + 2 && text[i - 1] !== ' ' && text[i] !== ' ') {
              broken.push(text);
            }
            lastTop = top;
          }
        }
      }
      return broken;
    });
    expect(split).toEqual([]);
    expect(errors).toEqual([]);
  });

  it('keeps every Filters input at least 64 px wide at 375 px', async () => {
    const session = await sandbox.sessionOf(DRIVER);
    const { page } = await sandbox.newPage({ width: 375, storageState: session });
    await page.goto('/flex/settings');
    await settled(page);
    await page.getByLabel('Min amount per hour', { exact: true }).waitFor();
    const narrow = await page.evaluate(() =>
      [...document.querySelectorAll('main input:not([type="checkbox"], [type="radio"])')]
        .map((input) => ({
          name: input.getAttribute('id') ?? input.getAttribute('name') ?? '?',
          width: input.getBoundingClientRect().width,
        }))
        .filter(({ width }) => width > 0 && width < 64),
    );
    expect(narrow).toEqual([]);
    expect(await overflowsHorizontally(page)).toBe(false);
  });
});
