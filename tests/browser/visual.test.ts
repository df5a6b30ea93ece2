// The visual pass: every route for visitors, drivers and the owner in both languages at 1366 and
// 375 px, photographed under tests/screenshots/ (visual-<language>-<width>-<screen>.png) for a person
// to look at, and failing when a screen logs a console error or renders nothing, when a phone must
// scroll sideways, when a table at desktop width cuts a column off behind its own scroll box, or when
// axe-core finds a serious or critical violation. It is the one place screens are photographed and
// checked with axe at both widths; the other browser files test behaviour. The English pass at 1366 px
// opens each screen at its address; the other three go from screen to screen inside the app.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type BrowserSandbox,
  DRIVER,
  extendService,
  OWNER,
  overflowsHorizontally,
  type StorageState,
  screenshot,
  seriousViolations,
  settled,
  startBrowserSandbox,
  type TestPage,
} from './harness.js';

type Role = 'visitor' | 'driver' | 'owner';
const DRIVER_PHONE = encodeURIComponent(DRIVER.phoneNumber);

/** `shows`: an English text that proves the screen drew its content, not only its frame. */
const SCREENS: { role: Role; path: string; name: string; shows?: string }[] = [
  { role: 'visitor', path: '/', name: 'landing' },
  { role: 'visitor', path: '/login', name: 'login' },
  { role: 'visitor', path: '/register', name: 'register' },
  { role: 'visitor', path: '/forgot-password', name: 'forgot-password' },
  { role: 'visitor', path: '/confirm-account', name: 'confirm-account' },
  { role: 'visitor', path: '/faqs', name: 'faqs' },
  { role: 'visitor', path: '/terms', name: 'terms' },
  { role: 'visitor', path: '/contact', name: 'contact' },
  { role: 'visitor', path: '/no-such-page', name: 'not-found' },
  { role: 'driver', path: '/flex/dashboard', name: 'dashboard' },
  { role: 'driver', path: '/flex/settings', name: 'settings' },
  { role: 'driver', path: '/flex/calendar', name: 'calendar' },
  { role: 'driver', path: '/flex/invite', name: 'invite' },
  {
    role: 'driver',
    path: `/flex/invite/${encodeURIComponent('+13055550199')}`,
    name: 'invite-friend',
  },
  { role: 'driver', path: '/flex/reseller', name: 'reseller' },
  { role: 'driver', path: '/payment', name: 'payment' },
  { role: 'driver', path: '/payment?weeks=2', name: 'payment-2-weeks' },
  { role: 'driver', path: '/flex/billing', name: 'billing', shows: 'Invoices and receipts' },
  { role: 'driver', path: '/flex/login', name: 'flex-login' },
  { role: 'driver', path: '/flex/otp', name: 'flex-otp' },
  { role: 'driver', path: '/flex/confirm', name: 'flex-confirm' },
  // A driver who opens the admin area is turned away without an error.
  { role: 'driver', path: '/admin', name: 'driver-admin' },
  { role: 'owner', path: '/admin', name: 'admin-dashboard', shows: 'Step 1 of 3' },
  { role: 'owner', path: '/admin/users', name: 'admin-users', shows: 'Users' },
  { role: 'owner', path: `/admin/users/${DRIVER_PHONE}`, name: 'admin-user', shows: DRIVER.name },
  {
    role: 'owner',
    path: `/admin/users/${DRIVER_PHONE}/dashboard`,
    name: 'admin-user-dashboard',
    shows: 'Offers won',
  },
  { role: 'owner', path: '/admin/billing', name: 'admin-billing', shows: 'Subscriptions now' },
  {
    role: 'owner',
    path: '/admin/invitations',
    name: 'admin-invitations',
    shows: 'Free weeks granted',
  },
  { role: 'owner', path: '/admin/tools', name: 'admin-tools', shows: 'Limit characters' },
  {
    role: 'owner',
    path: '/admin/notifications',
    name: 'admin-notifications',
    shows: 'Send SMS to unpaid invitations',
  },
  { role: 'owner', path: '/admin/leads', name: 'admin-leads', shows: 'Leads' },
  { role: 'owner', path: '/admin/approvals', name: 'admin-approvals', shows: 'Approval threshold' },
  { role: 'owner', path: '/admin/audit', name: 'admin-audit', shows: 'Export CSV' },
  { role: 'owner', path: '/admin/support', name: 'admin-support', shows: 'Support inbox' },
  { role: 'owner', path: `/flex/calendar/${DRIVER_PHONE}`, name: 'admin-driver-calendar' },
];

/** Refusals the pages expect: none, since a page asks only for what its role may read. */
const EXPECTED_REFUSALS: RegExp[] = [];

let sandbox: BrowserSandbox;
const sessions: Partial<Record<Role, StorageState>> = {};

beforeAll(async () => {
  sandbox = await startBrowserSandbox();
  await extendService(sandbox.gateway, DRIVER.phoneNumber);
  await extendService(sandbox.gateway, OWNER.phoneNumber);
  sessions.driver = await sandbox.sessionOf(DRIVER);
  sessions.owner = await sandbox.sessionOf(OWNER);
}, 120_000);
afterAll(async () => {
  await sandbox?.close();
});

/**
 * Tables whose box scrolls sideways by more than a border's rounding: a column is cut off until
 * scrolled to.
 */
const cutOffTables = (page: Page) =>
  page.evaluate(() =>
    [...document.querySelectorAll('table')]
      .filter((table) => {
        const box = table.closest('.table-scroll') ?? table.parentElement;
        return box !== null && box.scrollWidth > box.clientWidth + 4;
      })
      .map((table) => {
        const box = table.closest('.table-scroll') ?? table.parentElement!;
        const name = table.querySelector('caption')?.textContent ?? 'a table';
        return `${name}" (${box.scrollWidth} px wide in ${box.clientWidth} px)`;
      }),
  );

const settle = async ({ page, quiet }: TestPage) => {
  await quiet();
  await settled(page);
  // Spinners of tables still loading.
  await page
    .locator('.spinner')
    .first()
    .waitFor({ state: 'detached', timeout: 15_000 })
    .catch(() => {});
};

/**
 * Whether a pass opens every screen at its address (a reload of the whole app, as a link from
 * outside or a bookmark does), or only each role's first, going on as a link inside the app does.
 * One pass of the four loads every screen fresh; the others take under half its time, since a
 * reload spends most of a screen's wait on the app starting again.
 */
const opensEachAtItsAddress = (language: 'en' | 'es', width: number) =>
  language === 'en' && width === 1366;

// One pass after another: run at once in one Chromium, a full-page screenshot once waited past its
// 30 s timeout on a loaded machine.
describe('the visual pass', () => {
  for (const language of ['en', 'es'] as const) {
    for (const width of [1366, 375]) {
      it(`photographs every screen in ${language} at ${width} px, none overflowing or cutting a column`, async () => {
        const problems: string[] = [];
        for (const role of ['visitor', 'driver', 'owner'] as const) {
          const storageState = sessions[role];
          const tab = await sandbox.newPage({
            width,
            language,
            ...(storageState ? { storageState } : {}),
          });
          const { page, context, errors } = tab;
          for (const [index, screen] of SCREENS.filter((s) => s.role === role).entries()) {
            errors.length = 0;
            if (index === 0 || opensEachAtItsAddress(language, width)) await page.goto(screen.path);
            else await tab.goInApp(screen.path);
            await settle(tab);
            if (screen.shows && language === 'en') {
              await page.getByText(screen.shows).first().waitFor({ timeout: 15_000 });
            }
            // biome-ignore lint/performance/useDomNodeTextContent: what is rendered visible is the point.
            if ((await page.locator('body').innerText()).trim() === '') {
              problems.push(`${screen.path}: rendered nothing`);
            }
            await screenshot(page, `visual-${language}-${width}-${screen.name}`);
            if (width === 375 && (await overflowsHorizontally(page))) {
              problems.push(`${screen.path}: scrolls sideways at 375 px`);
            }
            if (width === 1366) {
              for (const table of await cutOffTables(page)) {
                problems.push(`${screen.path}: "${table} cuts a column off at 1366 px`);
              }
            }
            for (const v of await seriousViolations(page)) {
              problems.push(
                `${screen.path}: ${v.impact} ${v.id} ${v.help} at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`,
              );
            }
            const unexpected = errors.filter((e) => !EXPECTED_REFUSALS.some((p) => p.test(e)));
            if (unexpected.length > 0) problems.push(`${screen.path}: ${unexpected.join(' | ')}`);
          }
          await context.close();
        }
        expect(problems).toEqual([]);
      }, 300_000);
    }
  }
});
