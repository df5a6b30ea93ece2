// What the browser tests share: the real sandbox gateway (PGlite in memory, seeded) serving the
// built web app on 127.0.0.1:0, one Debian Chromium per test file with a fresh context per test,
// console errors collected, SMS codes read from the outbox, axe-core and screenshots.
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';
import { buildGateway, type Gateway, type GatewayConfigInput } from '@blockcatch/gateway';
import { readOutbox } from '@blockcatch/gateway/testing';
import {
  type Browser,
  type BrowserContext,
  chromium,
  type Page,
  type Request,
} from 'playwright-core';
import staff from '../../fixtures/data/staff.json' with { type: 'json' };
import { eventually } from '../support/eventually.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
export const WEB_DIR = `${root}web/dist`;
export const SCREENSHOT_DIR = `${root}tests/screenshots`;
const AXE_PATH = `${root}node_modules/axe-core/axe.min.js`;

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

interface StaffAccount {
  name: string;
  phoneNumber: string;
  password: string;
  isAdmin: boolean;
  role: { role: string } | null;
}
const accounts = staff as StaffAccount[];
const find = (predicate: (a: StaffAccount) => boolean, what: string) => {
  const account = accounts.find(predicate);
  if (!account) throw new Error(`fixtures/data/staff.json has no ${what}`);
  return account;
};
export const OWNER = find((a) => a.role?.role === 'owner', 'owner');
export const ADMIN = find((a) => a.isAdmin && a.role?.role !== 'owner', 'non-owner admin');
export const DRIVER = find((a) => !a.isAdmin, 'driver');

export interface BrowserSandbox {
  gateway: Gateway;
  url: string;
  browser: Browser;
  /** A new context (its own storage) and page, with console errors collected. */
  newPage(options?: NewPageOptions): Promise<TestPage>;
  /** Signs `account` in once and returns its storage, for `newPage({ storageState })`. */
  sessionOf(account: { phoneNumber: string; password: string }): Promise<StorageState>;
  close(): Promise<void>;
}

export type StorageState = Awaited<ReturnType<BrowserContext['storageState']>>;

export interface NewPageOptions {
  /** Viewport width in CSS pixels; 1280 unless told (375 for the phone checks). */
  width?: number;
  /** Stored as the app's language before the first page loads. */
  language?: 'en' | 'es';
  /** A signed-in session from `sessionOf`. */
  storageState?: StorageState;
}

export interface TestPage {
  page: Page;
  context: BrowserContext;
  /** Console errors (with the resource for failed loads) and uncaught page errors so far. */
  errors: string[];
  /**
   * Resolves once no request is in flight and none has started for QUIET_MS: the page's data and
   * lazy chunks have arrived, and a request that fails has logged its error.
   */
  quiet(): Promise<void>;
  /**
   * Opens `path` as a link inside the app does (the history and a popstate, no reload), and starts
   * quiet()'s idle wait afresh, so that a quiet() after it waits for the new screen's requests.
   */
  goInApp(path: string): Promise<void>;
}

/** How long the network must stay idle for quiet(); a page chains its requests far faster. */
const QUIET_MS = 100;

/** `config`: settings a test changes (e.g. marketing consent on), over the ones below. */
export async function startBrowserSandbox(
  config: Partial<GatewayConfigInput> = {},
): Promise<BrowserSandbox> {
  // A copy of the build, so that rebuilding web/dist while tests run cannot pull pages from
  // under them (index.html naming chunks that a newer build has replaced).
  const webDir = mkdtempSync(`${tmpdir()}/blockcatch-web-`);
  cpSync(WEB_DIR, webDir, { recursive: true, filter: (source) => !source.endsWith('.map') });
  const gateway = await buildGateway({
    port: 0,
    logLevel: 'silent',
    seed: true,
    webDir,
    // Quiet hours off: a test must not depend on the hour it runs.
    quietHours: false,
    // Consent and the weekly cap off: the screens' tests send to the same people again and again.
    marketingConsent: false,
    marketingWeeklyCap: 0,
    // WhatsApp approvals off: the send screens' tests send templates and follow them to the
    // outbox; admin-approvals.test.ts lowers the size threshold to test the wait.
    approvalForWhatsapp: false,
    // Time-based alerts off: what a test sees must not depend on how long it runs.
    alerts: { sweepMs: 0 },
    // The sandbox platform's offer stream and the catcher are not what these tests look at.
    sandboxPlatform: { failureRate: 0 },
    ...config,
  });
  await gateway.app.listen({ host: '127.0.0.1', port: 0 });
  const { port } = gateway.app.server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: CHROMIUM_ARGS,
  });
  const contexts = new Set<BrowserContext>();

  const sandbox: BrowserSandbox = {
    gateway,
    url,
    browser,
    async newPage({ width = 1280, language, storageState } = {}) {
      const context = await browser.newContext({
        baseURL: url,
        ...(storageState ? { storageState } : {}),
        viewport: { width, height: 900 },
        locale: 'en-US',
        timezoneId: 'America/New_York',
      });
      contexts.add(context);
      context.on('close', () => contexts.delete(context));
      if (language) {
        await context.addInitScript((lang) => {
          if (!window.localStorage.getItem('language'))
            window.localStorage.setItem('language', lang);
        }, language);
      }
      const page = await context.newPage();
      // Requests in flight, for quiet(): Playwright's own 'networkidle' always waits 500 ms more.
      const inFlight = new Set<Request>();
      let lastStarted = performance.now();
      page.on('request', (request) => {
        inFlight.add(request);
        lastStarted = performance.now();
      });
      page.on('requestfinished', (request) => inFlight.delete(request));
      page.on('requestfailed', (request) => inFlight.delete(request));
      const quiet = () =>
        eventually(
          () => {
            if (inFlight.size > 0) throw new Error(`${inFlight.size} requests still in flight`);
            if (performance.now() - lastStarted < QUIET_MS)
              throw new Error('a request just started');
          },
          { timeout: 15_000 },
        );
      const errors: string[] = [];
      page.on('console', (message) => {
        if (message.type() !== 'error') return;
        const where = message.location().url;
        errors.push(where ? `${message.text()} (${where.replace(url, '')})` : message.text());
      });
      page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`));
      const goInApp = async (path: string) => {
        await page.evaluate((to) => {
          window.history.pushState(null, '', to);
          window.dispatchEvent(new PopStateEvent('popstate'));
        }, path);
        lastStarted = performance.now();
      };
      return { page, context, errors, quiet, goInApp };
    },
    async sessionOf(account) {
      const { page, context } = await sandbox.newPage();
      await signIn(page, account);
      const state = await context.storageState();
      await context.close();
      return state;
    },
    async close() {
      await Promise.all([...contexts].map((c) => c.close().catch(() => {})));
      await browser.close().catch(() => {});
      await gateway.close();
      rmSync(webDir, { recursive: true, force: true });
    },
  };
  return sandbox;
}

/**
 * Gives the driver with `phone` `days` of paid service from now, so a long run never meets the
 * seeded expiration (days after seeding) and the gateway's sweep sending them to /payment.
 */
export async function extendService(gateway: Gateway, phone: string, days = 30): Promise<void> {
  await gateway.db.query(
    'UPDATE users SET expiration_ts = $1, good_standing = true WHERE phone_number = $2',
    [Date.now() + days * 86_400_000, phone],
  );
}

/** The newest 6-digit code texted to `phone`, waiting for it to arrive. */
export async function latestCode(
  gateway: Gateway,
  phone: string,
  options: { afterId?: number; timeoutMs?: number } = {},
): Promise<string> {
  return eventually(
    async () => {
      const [message] = await readOutbox(gateway.db, {
        to: phone,
        limit: 1,
        ...(options.afterId === undefined ? {} : { afterId: options.afterId }),
      });
      const code = message?.body.match(/\b(\d{6})\b/)?.[1];
      if (!code) throw new Error(`no code in the outbox for ${phone}`);
      return code;
    },
    { timeout: options.timeoutMs ?? 20_000 },
  );
}

/** The id of the newest outbox message, so a later `latestCode` only sees newer ones. */
export async function outboxMark(gateway: Gateway): Promise<number> {
  const [message] = await readOutbox(gateway.db, { limit: 1 });
  return message?.id ?? 0;
}

/**
 * Answers the Flex users table with `count` generated drivers in Miami (valid, distinct phones),
 * so a review of that many recipients can be opened without seeding them.
 */
export async function serveLargeUsersTable(page: Page, count: number): Promise<void> {
  const users = Array.from({ length: count }, (_, i) => ({
    name: `Driver ${i}`,
    phoneNumber: `+1305${String(5_000_000 + i).padStart(7, '0')}`,
    referral: null,
    goodStanding: i % 2 === 0,
    proxyInstalled: true,
    setupComplete: true,
    createDateTimestamp: 1_750_000_000_000 + i,
    expirationDate: null,
    expirationDateTimestamp: null,
    stripeExpressId: null,
    status: 'start',
    humanRegion: 'Miami',
  }));
  const body = JSON.stringify({ Items: users });
  await page.route('**/api/flex/v1/all-users-table', (route) =>
    route.fulfill({ status: 200, contentType: 'application/json', body }),
  );
}

/** Signs in through the landing page's form and waits to leave it. */
export async function signIn(page: Page, account: { phoneNumber: string; password: string }) {
  await page.goto('/');
  await page.getByLabel(/Phone number|Número de teléfono/).fill(account.phoneNumber);
  await page.getByLabel(/^(Password|Contraseña)$/).fill(account.password);
  await page.locator('form button[type="submit"]').click();
  await page.waitForURL((u) => u.pathname !== '/', { timeout: 15_000 });
}

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[] }[];
}

/** axe-core's serious and critical violations on the page as it is now. */
export async function seriousViolations(page: Page): Promise<AxeViolation[]> {
  const loaded = await page.evaluate(() => 'axe' in window);
  // Evaluated rather than added as a <script>: the gateway's Content-Security-Policy rightly refuses
  // inline scripts, and a test must not weaken it.
  if (!loaded) await page.evaluate(readFileSync(AXE_PATH, 'utf8'));
  const violations = await page.evaluate(async () => {
    // axe is the global the injected script defines.
    const axe = (window as unknown as { axe: { run(): Promise<{ violations: unknown[] }> } }).axe;
    return (await axe.run()).violations;
  });
  return (violations as AxeViolation[]).filter(
    (v) => v.impact === 'serious' || v.impact === 'critical',
  );
}

/** Saves a full-page screenshot as tests/screenshots/<name>.png (git-ignored). */
export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await page.screenshot({ path: `${SCREENSHOT_DIR}/${name}.png`, fullPage: true });
}

/** Whether the page body is wider than the viewport (content spilling sideways). */
export async function overflowsHorizontally(page: Page): Promise<boolean> {
  return page.evaluate(
    () => document.documentElement.scrollWidth > document.documentElement.clientWidth + 1,
  );
}

/** Waits until the lazy page has loaded and the loading overlay is gone. */
export async function settled(page: Page): Promise<void> {
  await page.locator('.loading-overlay').first().waitFor({ state: 'detached', timeout: 15_000 });
}
