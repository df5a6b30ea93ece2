// The largest contentful paint of / on loopback with the CPU slowed four times through the
// DevTools protocol, printed beside its one-second goal. Only a generous bound is asserted: on a
// shared, loaded machine the figure measures the machine as much as the page, but a page that
// paints only after its JavaScript has run (no prerendered landing page) or after a lazy chunk
// goes past it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BrowserSandbox, startBrowserSandbox } from './harness.js';

const LCP_GOAL_MS = 1000;
/** What a loaded CI machine surely meets; the page paints in well under half of it when quiet. */
const LCP_BOUND_MS = 4000;

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
          let last = 0;
          new PerformanceObserver((list) => {
            for (const entry of list.getEntries()) last = entry.startTime;
          }).observe({ type: 'largest-contentful-paint', buffered: true });
          // LCP is final once the page has been quiet for a moment.
          setTimeout(() => resolve(last), 1500);
        }),
    );
    console.info(
      `LCP of / with 4× CPU slowdown: ${Math.round(lcp)} ms (goal ${LCP_GOAL_MS} ms, bound ${LCP_BOUND_MS} ms)`,
    );
    await measured.context.close();
    expect(lcp).toBeGreaterThan(0);
    expect(lcp).toBeLessThan(LCP_BOUND_MS);
  });
});
