// The main screens read entirely in Spanish after the toggle (and back), and the shell loads the SDK
// only when it is needed, names the page in the tab's title, keeps the current page on screen while
// a link's next page loads and itself when a page's code cannot be fetched, and offers a reload for
// a new version. Every route's console errors, axe,
// 375 px fit and screenshots are the visual pass's (visual.test.ts).
import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type BrowserSandbox,
  DRIVER,
  extendService,
  type StorageState,
  settled,
  startBrowserSandbox,
} from './harness.js';

type Catalogue = { [key: string]: string | Catalogue };
const flatten = (catalogue: Catalogue, prefix = ''): Map<string, string> =>
  new Map(
    Object.entries(catalogue).flatMap(([key, value]) =>
      typeof value === 'string'
        ? [[`${prefix}${key}`, value] as const]
        : [...flatten(value, `${prefix}${key}.`)],
    ),
  );
const load = (language: string) =>
  flatten(
    JSON.parse(readFileSync(new URL(`../../locales/${language}.json`, import.meta.url), 'utf8')),
  );
const en = load('en');
const es = load('es');
/**
 * English texts a Spanish screen must not show: long enough not to be a name or a word both
 * languages share, and different in Spanish. The CLI's texts never reach the browser.
 */
const englishOnly = [...en]
  .filter(([key, text]) => !key.startsWith('cli.') && text.length >= 12 && es.get(key) !== text)
  .map(([, text]) => text.replace(/\{\{[^}]+\}\}/g, '').trim())
  .filter((text) => text.length >= 12 && !text.includes('<'));

type Role = 'visitor' | 'driver';

/** The screens a driver or visitor spends time on, with the heading that shows each has loaded. */
const MAIN_SCREENS: { role: Role; path: string; name: string; ready: string }[] = [
  { role: 'visitor', path: '/', name: 'landing', ready: 'landing.title' },
  { role: 'visitor', path: '/register', name: 'register', ready: 'auth.register.title' },
  {
    role: 'visitor',
    path: '/forgot-password',
    name: 'forgot-password',
    ready: 'auth.forgotPassword.title',
  },
  { role: 'visitor', path: '/faqs', name: 'faqs', ready: 'faqs.title' },
  { role: 'visitor', path: '/contact', name: 'contact', ready: 'contact.title' },
  { role: 'visitor', path: '/terms', name: 'terms', ready: 'terms.title' },
  { role: 'driver', path: '/flex/dashboard', name: 'dashboard', ready: 'flex.offers.title' },
  { role: 'driver', path: '/flex/settings', name: 'settings', ready: 'flex.settings.title' },
  { role: 'driver', path: '/payment', name: 'payment', ready: 'flex.payment.title' },
  { role: 'driver', path: '/flex/invite', name: 'invite', ready: 'flex.invite.yourInvitations' },
  { role: 'driver', path: '/flex/calendar', name: 'calendar', ready: 'flex.calendar.title' },
  { role: 'driver', path: '/flex/login', name: 'flex-login', ready: 'flex.login.title' },
];

let sandbox: BrowserSandbox;
const sessions: Partial<Record<Role, StorageState>> = {};

beforeAll(async () => {
  sandbox = await startBrowserSandbox();
  await extendService(sandbox.gateway, DRIVER.phoneNumber);
  sessions.driver = await sandbox.sessionOf(DRIVER);
});
afterAll(async () => {
  await sandbox?.close();
});

const open = (role: Role, options: { width?: number; language?: 'en' | 'es' } = {}) => {
  const storageState = sessions[role];
  return sandbox.newPage({ ...options, ...(storageState ? { storageState } : {}) });
};

const text = (catalogue: Map<string, string>, key: string) => {
  const value = catalogue.get(key);
  if (value === undefined) throw new Error(`no ${key} in the catalogue`);
  return value;
};

/** Waits for the screen's heading in `catalogue`'s language, then for the overlay to go. */
const ready = async (page: Page, catalogue: Map<string, string>, key: string) => {
  await page
    .getByRole('heading', { name: text(catalogue, key), exact: true })
    .first()
    .waitFor();
  await settled(page);
};

describe('the main screens', () => {
  it('switch every visible text to Spanish with the toggle, and back to English', async () => {
    const left: string[] = [];
    for (const role of ['visitor', 'driver'] as const) {
      const { page, context } = await open(role);
      for (const screen of MAIN_SCREENS.filter((s) => s.role === role)) {
        await page.goto(screen.path);
        await ready(page, en, screen.ready);

        await page.getByTestId('language-toggle').selectOption('es');
        await ready(page, es, screen.ready);
        // biome-ignore lint/performance/useDomNodeTextContent: only visible text must be Spanish.
        const body = await page.locator('body').innerText();
        for (const english of englishOnly) {
          if (body.includes(english)) left.push(`${screen.path}: "${english}"`);
        }
        expect(await page.evaluate(() => document.documentElement.lang)).toBe('es');

        // The choice is stored: a reload stays in Spanish, and the toggle brings English back.
        await page.reload();
        await ready(page, es, screen.ready);
        await page.getByTestId('language-toggle').selectOption('en');
        await ready(page, en, screen.ready);
      }
      await context.close();
    }
    expect(left).toEqual([]);
  });
});

describe('the shell', () => {
  it("names the page in the tab's title, in the language shown, as links change the page", async () => {
    const titled = (catalogue: Map<string, string>, key: string) =>
      `${text(catalogue, key)} · BlockCatch`;
    const driver = await open('driver');
    const { page } = driver;
    await page.goto('/flex/settings');
    await ready(page, en, 'flex.settings.title');
    await expect.poll(() => page.title()).toBe(titled(en, 'flex.settings.title'));

    await page.getByTestId('language-toggle').selectOption('es');
    await ready(page, es, 'flex.settings.title');
    await expect.poll(() => page.title()).toBe(titled(es, 'flex.settings.title'));

    await page
      .getByRole('link', { name: text(es, 'nav.calendar'), exact: true })
      .first()
      .click();
    await ready(page, es, 'flex.calendar.title');
    await expect.poll(() => page.title()).toBe(titled(es, 'flex.calendar.title'));
    await driver.context.close();

    const visitor = await open('visitor');
    await visitor.page.goto('/');
    await ready(visitor.page, en, 'landing.title');
    expect(await visitor.page.title()).toBe('BlockCatch');
    await visitor.context.close();
  });

  it('shows the landing page to a visitor before the SDK is fetched, and fetches it on focus', async () => {
    const { page, context } = await open('visitor');
    const scripts: string[] = [];
    page.on('request', (request) => {
      if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
    });
    await page.goto('/');
    await ready(page, en, 'landing.title');
    expect(scripts.filter((path) => /\/assets\/sdk-/.test(path))).toEqual([]);
    await page.getByLabel('Phone number').focus();
    await expect.poll(() => scripts.some((path) => /\/assets\/sdk-/.test(path))).toBe(true);
    await context.close();
  });

  it("keeps the current page on screen while a link's next page is still loading", async () => {
    const { page, context } = await open('driver');
    await page.goto('/flex/settings');
    await ready(page, en, 'flex.settings.title');
    // The calendar's chunk is held until the checks below are done.
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      void page.route(/\/assets\/CalendarPage-[\w-]+\.js$/, async (route) => {
        resolve();
        await new Promise<void>((go) => {
          release = go;
        });
        await route.continue();
      });
    });
    await page
      .getByRole('link', { name: text(en, 'nav.calendar'), exact: true })
      .first()
      .click();
    await held;
    expect(
      await page.getByRole('heading', { name: text(en, 'flex.settings.title') }).isVisible(),
    ).toBe(true);
    expect(await page.locator('.loading-overlay').count()).toBe(0);
    release();
    await ready(page, en, 'flex.calendar.title');
    await context.close();
  });

  it("keeps the shell and says so when a page's code cannot be fetched, opened at its address or by a link", async () => {
    const { page, context } = await open('visitor');
    // The FAQ page's chunk never arrives, as on a dropped connection or after a deploy removed it.
    await page.route(/\/assets\/FaqsPage-[\w-]+\.js$/, (route) => route.abort('failed'));
    const failed = page.getByText(text(en, 'errorPage.pageLoad'));

    await page.goto('/faqs');
    await failed.waitFor();
    // The shell stays: its header and the way home.
    await page.getByRole('link', { name: 'BlockCatch' }).waitFor();

    await page.getByRole('link', { name: text(en, 'errorPage.goBack') }).click();
    await ready(page, en, 'landing.title');
    await page
      .getByRole('link', { name: text(en, 'nav.faqs') })
      .first()
      .click();
    await failed.waitFor();
    expect(new URL(page.url()).pathname).toBe('/faqs');
    await context.close();
  });

  it('offers a reload when the health poll sees a new version', async () => {
    const { page, context } = await open('visitor');
    await page.clock.install();
    let version = 'build-1';
    await page.route('**/api/status/health', (route) => {
      return route.fulfill({
        status: 200,
        contentType: 'application/json',
        headers: { 'x-amz-version-id': version, 'x-amz-cf-id': 'cdn-1' },
        body: '{"status":"ok"}',
      });
    });
    await page.goto('/');
    await ready(page, en, 'landing.title');
    await page.clock.fastForward(5_000);
    // The first answer must be read before the clock jumps again: a jump while it is still on its
    // way would fire its request timeout, and the page would take the next answer as its own.
    await expect
      .poll(() => page.evaluate(() => document.documentElement.dataset.deployedVersion))
      .toBe('build-1');
    version = 'build-2';
    await page.clock.fastForward(61_000);
    await page.getByText(text(en, 'common.updateAvailable')).waitFor();
    await page.getByRole('button', { name: text(en, 'common.reload') }).waitFor();
    await context.close();
  });
});
