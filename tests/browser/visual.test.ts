// The visual pass: every screen in both languages at 1366 and 375 px, photographed under
// tests/screenshots/ (visual-<language>-<width>-<screen>.png) for a person to look at, and failing
// when a phone must scroll sideways, when a table at desktop width cuts a column off behind its
// own scroll box, or when axe-core finds a serious or critical violation.
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
} from './harness.js';

type Role = 'visitor' | 'driver' | 'owner';
const DRIVER_PHONE = encodeURIComponent(DRIVER.phoneNumber);

const SCREENS: { role: Role; path: string; name: string }[] = [
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
  { role: 'driver', path: '/flex/reseller', name: 'reseller' },
  { role: 'driver', path: '/payment', name: 'payment' },
  { role: 'driver', path: '/flex/login', name: 'flex-login' },
  { role: 'driver', path: '/flex/otp', name: 'flex-otp' },
  { role: 'driver', path: '/flex/confirm', name: 'flex-confirm' },
  { role: 'owner', path: '/admin', name: 'admin-dashboard' },
  { role: 'owner', path: '/admin/users', name: 'admin-users' },
  { role: 'owner', path: `/admin/users/${DRIVER_PHONE}`, name: 'admin-user' },
  { role: 'owner', path: `/admin/users/${DRIVER_PHONE}/dashboard`, name: 'admin-user-dashboard' },
  { role: 'owner', path: '/admin/billing', name: 'admin-billing' },
  { role: 'owner', path: '/admin/invitations', name: 'admin-invitations' },
  { role: 'owner', path: '/admin/tools', name: 'admin-tools' },
  { role: 'owner', path: '/admin/notifications', name: 'admin-notifications' },
  { role: 'owner', path: '/admin/leads', name: 'admin-leads' },
];

/** Refusals the pages expect and show as text. */
const EXPECTED_REFUSALS = [/status of 403 .*\(\/api\/flex\/v1\/reseller\)$/];

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

const settle = async (page: Page) => {
  await page.waitForLoadState('networkidle');
  await settled(page);
  // Spinners of tables still loading.
  await page
    .locator('.spinner')
    .first()
    .waitFor({ state: 'detached', timeout: 15_000 })
    .catch(() => {});
};

describe('the visual pass', () => {
  for (const language of ['en', 'es'] as const) {
    for (const width of [1366, 375]) {
      it(`photographs every screen in ${language} at ${width} px, none overflowing or cutting a column`, async () => {
        const problems: string[] = [];
        for (const role of ['visitor', 'driver', 'owner'] as const) {
          const storageState = sessions[role];
          const { page, context, errors } = await sandbox.newPage({
            width,
            language,
            ...(storageState ? { storageState } : {}),
          });
          for (const screen of SCREENS.filter((s) => s.role === role)) {
            errors.length = 0;
            await page.goto(screen.path);
            await settle(page);
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
