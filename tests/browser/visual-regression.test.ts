// Visual regression: the main screens at 375 and 1366 px in English and Spanish, compared pixel by
// pixel (pixelmatch) with the baseline PNGs committed in tests/browser/baselines/. A screen whose
// size changed or whose differing pixels pass MAX_DIFF_RATIO fails, and its picture and the
// difference are written to tests/screenshots/ to look at. `npm run test:baselines` (after a
// build) writes new baselines when a change is meant.
//
// What makes a picture the same from run to run on a loaded machine: the browser's clock fixed, the
// data fixed (the driver's service end, no offers, the system off, so the catcher wins nothing),
// animations and the caret off, fonts loaded, the network quiet, and two screenshots in a row
// alike before one is compared.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import pixelmatch from 'pixelmatch';
import type { Page } from 'playwright-core';
import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type BrowserSandbox,
  DRIVER,
  OWNER,
  SCREENSHOT_DIR,
  type StorageState,
  settled,
  startBrowserSandbox,
  type TestPage,
} from './harness.js';

const BASELINE_DIR = fileURLToPath(new URL('./baselines', import.meta.url));
const UPDATE = process.env.UPDATE_BASELINES === '1';
/** pixelmatch's per-pixel colour distance (0–1) under which two pixels count as the same. */
const PIXEL_THRESHOLD = 0.1;
/** The share of pixels that may differ: anti-aliasing and sub-pixel text, not a moved block. */
const MAX_DIFF_RATIO = 0.005;
/** The instant the browser's clock shows: a Thursday, so the calendar's week is always the same. */
const FIXED_NOW = new Date('2026-11-26T16:00:00Z');
/** The driver's service end: after FIXED_NOW and after any day the suite runs for years. */
const SERVICE_END = Date.parse('2036-01-15T17:00:00Z');

type Role = 'visitor' | 'driver' | 'owner';
/** A screen is photographed once every `ready` selector is on the page. */
const SCREENS: { role: Role; path: string; name: string; ready: string[] }[] = [
  { role: 'visitor', path: '/', name: 'landing', ready: ['h1'] },
  { role: 'visitor', path: '/contact', name: 'contact', ready: ['.contact-aside'] },
  { role: 'visitor', path: '/faqs', name: 'faqs', ready: ['.faq'] },
  // The Filters page and the calendar load parts after the page (the preview of what the filters
  // would have caught, station insight, consent, the calendar feed); each is waited for, and with
  // no offers recorded and the catcher off they show the same thing on every run.
  {
    role: 'driver',
    path: '/flex/settings',
    name: 'filters',
    ready: [
      '[data-testid=filter-preview]:not(:empty)',
      '.station-insight',
      '[data-testid=marketing-status]:not(:empty)',
    ],
  },
  {
    role: 'driver',
    path: '/flex/calendar',
    name: 'calendar',
    ready: ['[data-testid=week-totals]', '.calendar-feed .actions .primary:enabled'],
  },
  // Not the users or invitations tables: the fixtures' dates follow the day the gateway seeds, and
  // its sweep turns users lapsed as real days pass.
  { role: 'owner', path: '/admin/support', name: 'admin-support', ready: ['.admin-page p.muted'] },
];

let sandbox: BrowserSandbox;
const sessions: Partial<Record<Role, StorageState>> = {};

beforeAll(async () => {
  // The catcher and the sandbox's offers off: a block won or an offer seen would change the
  // Filters page's preview and the calendar between runs.
  sandbox = await startBrowserSandbox({
    catcher: { enabled: false },
    sandboxPlatform: { failureRate: 0, offerIntervalMs: 0 },
  });
  const db = sandbox.gateway.db;
  const [driver] = await db.query<{ id: string }>(
    `UPDATE users SET expiration_ts = $2, good_standing = true, status = 'stop'
     WHERE phone_number = $1 AND product = 'flex' RETURNING id`,
    [DRIVER.phoneNumber, SERVICE_END],
  );
  await db.query('DELETE FROM driver_offers WHERE user_id = $1', [driver!.id]);
  sessions.driver = await sandbox.sessionOf(DRIVER);
  sessions.owner = await sandbox.sessionOf(OWNER);
}, 120_000);
afterAll(async () => {
  await sandbox?.close();
});

/** A screenshot once two in a row are alike: a late layout shift or paint is waited out. */
async function steadyScreenshot(page: Page): Promise<Buffer> {
  const shoot = () =>
    page.screenshot({ fullPage: true, animations: 'disabled', caret: 'hide', scale: 'css' });
  let last = await shoot();
  for (let tries = 0; tries < 10; tries++) {
    const next = await shoot();
    if (next.equals(last)) return next;
    last = next;
  }
  throw new Error('the screen kept changing across 10 screenshots');
}

async function open(tab: TestPage, path: string, ready: readonly string[]): Promise<void> {
  await tab.page.goto(path);
  await tab.quiet();
  await settled(tab.page);
  for (const selector of ready) {
    await tab.page.locator(selector).first().waitFor({ state: 'attached', timeout: 15_000 });
  }
  await tab.quiet();
  await tab.page.evaluate(async () => {
    await document.fonts.ready;
  });
}

/** Compares `actual` with its baseline; the problem in words, or null when they match. */
function compare(name: string, actual: Buffer): string | null {
  const file = `${BASELINE_DIR}/${name}.png`;
  if (UPDATE) {
    writeFileSync(file, actual);
    return null;
  }
  if (!existsSync(file)) return `${name}: no baseline; run npm run test:baselines`;
  const expected = PNG.sync.read(readFileSync(file));
  const got = PNG.sync.read(actual);
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  if (expected.width !== got.width || expected.height !== got.height) {
    writeFileSync(`${SCREENSHOT_DIR}/regression-${name}-actual.png`, actual);
    return `${name}: ${got.width}×${got.height} px, the baseline is ${expected.width}×${expected.height}`;
  }
  const diff = new PNG({ width: got.width, height: got.height });
  const differing = pixelmatch(expected.data, got.data, diff.data, got.width, got.height, {
    threshold: PIXEL_THRESHOLD,
  });
  const ratio = differing / (got.width * got.height);
  if (ratio <= MAX_DIFF_RATIO) return null;
  writeFileSync(`${SCREENSHOT_DIR}/regression-${name}-actual.png`, actual);
  writeFileSync(`${SCREENSHOT_DIR}/regression-${name}-diff.png`, PNG.sync.write(diff));
  return `${name}: ${(ratio * 100).toFixed(2)}% of pixels differ (at most ${MAX_DIFF_RATIO * 100}%)`;
}

describe('the main screens look as their baselines', () => {
  for (const language of ['en', 'es'] as const) {
    for (const width of [375, 1366]) {
      it(`in ${language} at ${width} px`, async () => {
        const problems: string[] = [];
        for (const role of ['visitor', 'driver', 'owner'] as const) {
          const storageState = sessions[role];
          const tab = await sandbox.newPage({
            width,
            language,
            ...(storageState ? { storageState } : {}),
          });
          await tab.context.clock.setFixedTime(FIXED_NOW);
          // The admin tour is a first-visit overlay; the screens are photographed without it.
          await tab.context.addInitScript(() =>
            window.localStorage.setItem('admin.tourDismissed', 'true'),
          );
          for (const screen of SCREENS.filter((s) => s.role === role)) {
            await open(tab, screen.path, screen.ready);
            const problem = compare(
              `${screen.name}-${language}-${width}`,
              await steadyScreenshot(tab.page),
            );
            if (problem) problems.push(problem);
          }
          await tab.context.close();
        }
        expect(problems).toEqual([]);
      }, 300_000);
    }
  }
});
