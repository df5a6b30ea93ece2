// The largest contentful paint of / on loopback with the CPU slowed four times through the
// DevTools protocol, printed beside its one-second goal. The figure is not asserted: on a shared,
// loaded machine it measures the machine as much as the page (4.7 s was seen beside two CPU-bound
// loads). What makes it fast is asserted instead: the landing page's heading is in the served HTML,
// so it paints before any JavaScript has run or any lazy chunk has arrived.
import { availableParallelism, loadavg } from 'node:os';
import type { Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type BrowserSandbox,
  DRIVER,
  extendService,
  OWNER,
  serveLargeUsersTable,
  settled,
  signIn,
  startBrowserSandbox,
} from './harness.js';

const LCP_GOAL_MS = 1000;

let sandbox: BrowserSandbox;
beforeAll(async () => {
  sandbox = await startBrowserSandbox();
});
afterAll(async () => {
  await sandbox?.close();
});

describe('the landing page', () => {
  it('prints its largest contentful paint with the CPU slowed 4×', async () => {
    const { page, context } = await sandbox.newPage();
    // A first visit warms the gateway's file reads; the measured visit is a fresh context.
    await page.goto('/');
    await context.close();

    const measured = await sandbox.newPage();
    const cdp = await measured.context.newCDPSession(measured.page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
    await measured.page.goto('/');
    const lcp = await measured.page.evaluate(
      () =>
        new Promise<number>((resolve) => {
          // The page has loaded, so every candidate so far arrives in the first (buffered) call;
          // the largest paint among them is the LCP. Without a buffered entry, the first to come.
          const observer = new PerformanceObserver((list) => {
            const times = list.getEntries().map((entry) => entry.startTime);
            if (times.length === 0) return;
            observer.disconnect();
            resolve(Math.max(...times));
          });
          observer.observe({ type: 'largest-contentful-paint', buffered: true });
        }),
    );
    console.info(`LCP of / with 4× CPU slowdown: ${Math.round(lcp)} ms (goal ${LCP_GOAL_MS} ms)`);
    await measured.context.close();
    expect(lcp).toBeGreaterThan(0);
    const html = await (await fetch(`${sandbox.url}/`)).text();
    expect(html).toMatch(/<h1[^>]*>Catch delivery blocks automatically/);
  });
});

// A page opened at its address (a bookmark, a reload): its code is asked for beside the session
// check, not after it, and the page renders as soon as both are in. Printed, not asserted: how long
// after the session check answered the page asked for its data (it waited out React's 300 ms
// reveal throttle before). Asserted: the page's code was asked for before the session check
// answered, which is what lets it render at once.
describe("a driver's page opened at its address", () => {
  it('asks for its code beside the session check and renders once both are in', async () => {
    await extendService(sandbox.gateway, DRIVER.phoneNumber);
    const storageState = await sandbox.sessionOf(DRIVER);
    const { page, context, quiet } = await sandbox.newPage({ storageState });
    // In the order the browser reported them; `request` keeps the browser's own timings.
    const events: { what: 'asked' | 'answered'; request: Request }[] = [];
    page.on('request', (request) => events.push({ what: 'asked', request }));
    page.on('requestfinished', (request) => events.push({ what: 'answered', request }));
    await page.goto('/flex/dashboard');
    await page.getByTestId('system-state').waitFor();
    await quiet();
    await context.close();

    const index = (what: 'asked' | 'answered', path: RegExp) =>
      events.findIndex((e) => e.what === what && path.test(new URL(e.request.url()).pathname));
    const codeAsked = index('asked', /\/assets\/DashboardPage-[\w-]+\.js$/);
    const sessionAnswered = index('answered', /^\/api\/flex\/v1\/user$/);
    const dataAsked = index('asked', /^\/api\/flex\/v1\/dashboard$/);
    expect(codeAsked).toBeGreaterThanOrEqual(0);
    expect(sessionAnswered).toBeGreaterThan(codeAsked);
    expect(dataAsked).toBeGreaterThan(sessionAnswered);
    // On the browser's clock: when the session check's answer ended, and when the data was asked.
    const session = events[sessionAnswered]!.request.timing();
    const gap =
      events[dataAsked]!.request.timing().startTime - (session.startTime + session.responseEnd);
    console.info(
      `The dashboard opened at its address asked for its data ${Math.round(gap)} ms after the ` +
        `session check answered; load average ${loadavg()[0]!.toFixed(1)} on ${availableParallelism()} CPUs`,
    );
  });
});

// The review of 100,000 recipients: frame times while scrolling, as requestAnimationFrame deltas in
// Chromium while the page is scrolled programmatically through the table, a step per frame, page
// after page (a page holds at most 100 rows, and the table scrolls with the page). The p95 is
// printed beside the 60 fps goal, not asserted (a loaded machine is slow); that no more than the
// page's rows are drawn is asserted. The same review then answers a click and a search.
const FRAME_GOAL_MS = 1000 / 60;
/**
 * Its 315 frames are measured, not asserted: on a machine shared with the rest of the suite they
 * ran at up to 200 ms each, and the test took over 90 s where alone it takes 15.
 */
const REVIEW_TIMEOUT_MS = 240_000;
const PAGES = 15;
const STEPS_PER_PAGE = 20;
const ROWS_PER_PAGE = 100;
const DRAWN_ROWS = '.user-table tbody tr';

describe('a 100,000-row review', () => {
  it(
    'scrolls at a printed frame rate, draws one page of rows and answers clicks and typing',
    async () => {
      const { page, errors } = await sandbox.newPage();
      await serveLargeUsersTable(page, 100_000);
      await signIn(page, OWNER);
      await page.goto('/admin/tools');
      await settled(page);
      await page.getByLabel('Message', { exact: true }).fill('Hello');
      await page.getByRole('button', { name: 'Review' }).click();
      await expect
        .poll(() => page.getByTestId('recipient-count').textContent(), { timeout: 30_000 })
        .toBe('100000 recipients');
      await page.getByLabel('Rows per page').selectOption(String(ROWS_PER_PAGE));
      await expect.poll(() => page.locator(DRAWN_ROWS).count()).toBe(ROWS_PER_PAGE);
      // The gateway's preview of 100,000 numbers is in before the measurement starts.
      await page.getByTestId('rendered-preview').waitFor({ timeout: 30_000 });

      const run = await page.evaluate(
        async ({ pages, steps, drawnRows }) => {
          const table = document.querySelector<HTMLElement>('.user-table')!;
          const next = [...document.querySelectorAll<HTMLButtonElement>('.pager button')].at(-1)!;
          const frame = () => new Promise<number>((resolve) => requestAnimationFrame(resolve));
          const deltas: number[] = [];
          let drawn = 0;
          let last = await frame();
          const step = async () => {
            const now = await frame();
            deltas.push(now - last);
            last = now;
            drawn = Math.max(drawn, document.querySelectorAll(drawnRows).length);
          };
          for (let p = 0; p < pages; p++) {
            const top = table.getBoundingClientRect().top + window.scrollY;
            const span = Math.max(0, table.offsetHeight - window.innerHeight);
            for (let s = 1; s <= steps; s++) {
              window.scrollTo(0, top + (span * s) / steps);
              await step();
            }
            next.click();
            await step();
          }
          return { deltas, drawn };
        },
        { pages: PAGES, steps: STEPS_PER_PAGE, drawnRows: DRAWN_ROWS },
      );
      const sorted = [...run.deltas].sort((a, b) => a - b);
      const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))]!;
      console.info(
        `Review of 100,000 rows, scrolling ${PAGES} pages of 100 in Chromium: frame p50 ${at(0.5).toFixed(1)} ms, ` +
          `p95 ${at(0.95).toFixed(1)} ms, max ${sorted.at(-1)!.toFixed(1)} ms over ${sorted.length} frames ` +
          `(goal p95 ≤ ${FRAME_GOAL_MS.toFixed(1)} ms, 60 fps); at most ${run.drawn} rows drawn; ` +
          `load average ${loadavg()[0]!.toFixed(1)} on ${availableParallelism()} CPUs`,
      );
      expect(run.drawn).toBe(ROWS_PER_PAGE);
      await page.getByText(new RegExp(`^Page ${PAGES + 1} of \\d+ · `)).waitFor();

      // One click: deselect a row; the count follows.
      await page.locator(DRAWN_ROWS).first().getByRole('checkbox').uncheck();
      await expect
        .poll(() => page.getByTestId('recipient-count').textContent())
        .toBe('99999 recipients');

      // 'Select all' on a search acts on the searched rows only.
      await page.getByPlaceholder('Search user...').fill('Driver 9999');
      await expect.poll(() => page.locator(DRAWN_ROWS).count()).toBe(11);
      await page.getByLabel('Select all').uncheck();
      await expect
        .poll(() => page.getByTestId('recipient-count').textContent())
        .toBe('99988 recipients');
      expect(errors).toEqual([]);
    },
    REVIEW_TIMEOUT_MS,
  );
});
