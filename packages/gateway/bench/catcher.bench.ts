// The block catcher with 1,000 drivers on the sandbox platform, in one gateway process: the time
// from the poll answer that first showed an offer to a driver to that driver's accept request
// leaving (p50, p99; goal p99 < 50 ms), the share of offers some driver wanted that one of ours won
// before the simulated other drivers took it, and the CPU the process spends per driver per hour.
// Offers are generated inside the drivers' own schedules (tomorrow, on their clock), so every
// figure is the same whatever the hour it runs.
// Run twice: with the sandbox's in-process "new offers" signal (pollers poll at once, within the
// account's pace) and with interval polling alone, which is all a real platform allows.
// Run alone: npx tsx packages/gateway/bench/catcher.bench.ts (after npm run build).
import { createHash, randomBytes } from 'node:crypto';
import { availableParallelism, loadavg } from 'node:os';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import {
  type Block,
  createOfferMatcher,
  type DriverFilters,
  formatIsoDay,
  type Offer,
  startOfDay,
} from '@blockcatch/sdk';
import Fastify from 'fastify';
import { createCatcher } from '../src/catcher/index.js';
import { createCredentialCipher } from '../src/platform/credential-cipher.js';
import { createSandboxPlatform } from '../src/platform/sandbox.js';
import { SANDBOX_SERVICE_AREAS } from '../src/platform/service-areas.js';
import type { DeliveryPlatform } from '../src/platform/types.js';
import { type Db, openDatabase } from '../src/storage/db.js';
import { migrate } from '../src/storage/migrate.js';
import { insertUsers } from '../src/storage/users.js';

const DRIVERS = 1000;
const OFFERS = 24;
const OFFER_GAP_MS = 300;
const HOUR = 3_600_000;
/** Every bench driver's zone and daily window: offers are placed inside it. */
const ZONE = 'America/Chicago';
const WINDOW = { start: '06:00', end: '22:00' };
const GOAL_P99_MS = 50;
const GOAL_WON_SHARE = 0.9;
/** CPU-seconds per driver per hour: one core carries 1,000 drivers. */
const GOAL_CPU_S = 3.6;

export async function benchCatcher(): Promise<string[]> {
  const lines = [
    `catcher: ${DRIVERS.toLocaleString('en-US')} drivers, ${OFFERS} offers ${OFFER_GAP_MS} ms apart inside the drivers' schedules (tomorrow ${WINDOW.start}–${WINDOW.end} ${ZONE}), one process, PGlite; ` +
      'sandbox limit 5 polls/s per account, others take an offer 2–8 s after it appears',
  ];
  const started = performance.now();
  // One database and one set of drivers for both runs; each run starts with no offers.
  const db = await openDatabase({ kind: 'pglite' });
  await migrate(db);
  const filters = await addDrivers(db);
  lines.push(...(await runOnce(db, filters, { signal: true, pollIntervalMs: 1000 })));
  await db.query('DELETE FROM driver_offers');
  await db.query('DELETE FROM sandbox_offers');
  lines.push(...(await runOnce(db, filters, { signal: false, pollIntervalMs: 250 })));
  await db.close();
  lines.push(matcherThroughput());
  lines.push(`  (whole catcher bench: ${((performance.now() - started) / 1000).toFixed(1)} s)`);
  return lines;
}

async function runOnce(
  db: Db,
  filters: Map<string, DriverFilters>,
  mode: { signal: boolean; pollIntervalMs: number },
): Promise<string[]> {
  const sandbox = createSandboxPlatform({
    db,
    sendCode: async () => {},
    options: { offerIntervalMs: 0, failureRate: 0 },
  });
  const publishedAt = new Map<string, number>();
  const acceptDelays: number[] = [];
  const firstAccept = new Map<string, number>();
  const wonBy = new Map<string, string>();
  const sightDelays: number[] = [];
  // When each driver's poll answer first listed each offer (performance.now()).
  const firstSight = new Map<string, number>();
  const seenToAccept: number[] = [];
  // Measures at the platform's door: the poll answer arriving and the accept call leaving.
  const measured: DeliveryPlatform = {
    ...sandbox,
    onNewOffers: mode.signal ? sandbox.onNewOffers : undefined,
    async listOffers(session) {
      const offers = await sandbox.listOffers(session);
      const at = performance.now();
      for (const offer of offers) {
        const key = `${session.accountId} ${offer.offerId}`;
        if (firstSight.has(key)) continue;
        firstSight.set(key, at);
        const published = publishedAt.get(offer.offerId);
        if (published !== undefined) sightDelays.push(at - published);
      }
      return offers;
    },
    async acceptOffer(session, offerId) {
      const at = performance.now();
      const seen = firstSight.get(`${session.accountId} ${offerId}`);
      if (seen !== undefined) seenToAccept.push(at - seen);
      const published = publishedAt.get(offerId);
      if (published !== undefined) {
        acceptDelays.push(at - published);
        if (!firstAccept.has(offerId)) firstAccept.set(offerId, at - published);
      }
      const outcome = await sandbox.acceptOffer(session, offerId);
      if (outcome === 'won') wonBy.set(offerId, session.accountId);
      return outcome;
    },
  };
  const catcher = createCatcher({
    db,
    platform: measured,
    cipher: benchCipher,
    log: Fastify({ logger: false }).log,
    options: {
      leaseMs: 20_000,
      renewMs: 5000,
      pollIntervalMs: mode.pollIntervalMs,
      minPollIntervalMs: 250,
      backoffBaseMs: 1000,
      backoffMaxMs: 60_000,
      flushMs: 100,
    },
  });
  catcher.start();
  while (catcher.heldDrivers().length < DRIVERS) await sleep(50);
  await sleep(1500);

  // Which offers some driver wanted when they appeared, decided as the catcher would.
  const matchers = [...filters.values()].map((f) => createOfferMatcher(f));
  const wanted = new Set<string>();
  const won: Block[][] = matchers.map(() => []);
  const cpuBefore = process.cpuUsage();
  const wallBefore = performance.now();
  // The floor: how late this process's event loop ran anything in the same window (a loaded
  // machine delays every callback, the catcher's included).
  const loopDelay = monitorEventLoopDelay({ resolution: 5 });
  loopDelay.enable();
  for (let i = 0; i < OFFERS; i++) {
    const offer = offerInSchedule(i);
    const start = performance.now();
    const published = await sandbox.publishOffer(offer);
    publishedAt.set(published.offerId, start);
    if (matchers.some((m, d) => m(published, { now: Date.now(), wonBlocks: won[d]! }).accept)) {
      wanted.add(published.offerId);
    }
    await sleep(OFFER_GAP_MS);
  }
  await sleep(1500);
  loopDelay.disable();
  const cpu = process.cpuUsage(cpuBefore);
  const wallSeconds = (performance.now() - wallBefore) / 1000;
  await catcher.stop();
  await sandbox.stop();

  const wonWanted = [...wanted].filter((id) => wonBy.has(id)).length;
  const delays = [...acceptDelays].sort((a, b) => a - b);
  const firsts = [...firstAccept.values()].sort((a, b) => a - b);
  const sights = [...sightDelays].sort((a, b) => a - b);
  const ours = [...seenToAccept].sort((a, b) => a - b);
  const share = wonWanted / Math.max(1, wanted.size);
  // Whole process (catcher, in-process sandbox platform and PGlite), spread over the drivers.
  const cpuSecondsPerDriverHour = ((cpu.user + cpu.system) / 1e6 / wallSeconds) * (3600 / DRIVERS);
  const label = mode.signal
    ? `with the sandbox's new-offer signal (poll ≤ every 250 ms on signal, else every ${mode.pollIntervalMs} ms)`
    : `interval polling only, every ${mode.pollIntervalMs} ms (what a real platform allows)`;
  const p99 = percentile(ours, 99);
  return [
    `  ${label}`,
    `    seen → accept call: p50 ${fmt(percentile(ours, 50))} ms, p99 ${fmt(p99)} ms ` +
      `(${ours.length} accept calls; goal p99 < ${GOAL_P99_MS} ms: ${p99 !== null && p99 < GOAL_P99_MS ? 'met' : 'MISSED'})`,
    `    floor, event-loop delay in the same window: p50 ${(loopDelay.percentile(50) / 1e6).toFixed(1)} ms, ` +
      `p99 ${(loopDelay.percentile(99) / 1e6).toFixed(1)} ms, max ${(loopDelay.max / 1e6).toFixed(1)} ms (load average ${loadavg()[0]!.toFixed(1)} on ${availableParallelism()} cores)`,
    `    wanted offers won: ${wonWanted} of ${wanted.size} (${(100 * share).toFixed(0)}%; goal ≥ ${100 * GOAL_WON_SHARE}%: ${wanted.size > 0 && share >= GOAL_WON_SHARE ? 'met' : 'MISSED'})`,
    `    CPU per driver per hour: ${cpuSecondsPerDriverHour.toFixed(2)} s (whole process over ${wallSeconds.toFixed(1)} s; goal ≤ ${GOAL_CPU_S} s, 1,000 drivers a core: ${cpuSecondsPerDriverHour <= GOAL_CPU_S ? 'met' : 'MISSED'})`,
    `    publish → accept call, all ${delays.length} calls: p50 ${fmt(percentile(delays, 50))} ms, p99 ${fmt(percentile(delays, 99))} ms; ` +
      `first call per offer: p50 ${fmt(percentile(firsts, 50))} ms, p99 ${fmt(percentile(firsts, 99))} ms`,
    `    publish → each driver's first sight of an offer (${sights.length.toLocaleString('en-US')}): ` +
      `p50 ${fmt(percentile(sights, 50))} ms, p99 ${fmt(percentile(sights, 99))} ms`,
  ];
}

// Accounts, sessions, links and filters are written in bulk (1,000 sign-ins would spend a minute
// in scrypt); they are the same rows verifyOtp and the settings endpoint write.
const benchKey = randomBytes(32);
const benchCipher = createCredentialCipher(benchKey);

async function addDrivers(db: Db): Promise<Map<string, DriverFilters>> {
  const filters = new Map<string, DriverFilters>();
  const now = Date.now();
  await insertUsers(
    db,
    Array.from({ length: DRIVERS }, (_, i) => ({
      id: `bench-${i}`,
      product: 'flex' as const,
      phone_number: `+1737${String(5_000_000 + i)}`,
      name: `Driver ${i}`,
      good_standing: true,
      proxy_installed: true,
      status: 'start' as const,
    })),
  );
  const ids = Array.from({ length: DRIVERS }, (_, i) => i);
  const sessions = ids.map((i) => ({
    accountId: `acct-bench-${i}`,
    accessToken: randomBytes(24).toString('base64url'),
  }));
  await db.query(
    `INSERT INTO sandbox_platform_accounts (account_id, email, password_hash, phone_number, created_ts)
     SELECT a, e, 'x', p, $4 FROM unnest($1::text[], $2::text[], $3::text[]) AS t(a, e, p)`,
    [
      sessions.map((s) => s.accountId),
      ids.map((i) => `bench${i}@example.com`),
      ids.map((i) => `+1737${String(5_000_000 + i)}`),
      now,
    ],
  );
  await db.query(
    `INSERT INTO sandbox_platform_sessions (token_hash, account_id, created_ts)
     SELECT h, a, $3 FROM unnest($1::text[], $2::text[]) AS t(h, a)`,
    [
      sessions.map((s) => createHash('sha256').update(s.accessToken).digest('base64')),
      sessions.map((s) => s.accountId),
      now,
    ],
  );
  await db.query(
    `INSERT INTO driver_platform_links (user_id, state, credentials_enc, session_enc, updated_ts)
     SELECT u, 'connected', c, s, $4 FROM unnest($1::text[], $2::text[], $3::text[]) AS t(u, c, s)`,
    [
      ids.map((i) => `bench-${i}`),
      ids.map(() => benchCipher.seal({ email: 'x', password: 'y' })),
      sessions.map((s) => benchCipher.seal(s)),
      now,
    ],
  );
  for (const i of ids) filters.set(`bench-${i}`, randomFilters(i));
  await db.query(
    `INSERT INTO driver_settings (user_id, filters, updated_ts)
     SELECT u, f::jsonb, $3 FROM unnest($1::text[], $2::text[]) AS t(u, f)`,
    [[...filters.keys()], [...filters.values()].map((f) => JSON.stringify(f)), now],
  );
  await db.query(`UPDATE users SET setup_complete = true WHERE id LIKE 'bench-%'`);
  return filters;
}

function randomFilters(i: number): DriverFilters {
  const areas = SANDBOX_SERVICE_AREAS.map((a) => a.id);
  const day = [WINDOW];
  return {
    warehouses: [areas[i % areas.length]!, areas[(i * 7 + 3) % areas.length]!],
    minHourlyPay: 18 + (i % 9),
    minBlockPay: 40,
    timeBufferMinutes: 30,
    weeklySchedule: { mon: day, tue: day, wed: day, thu: day, fri: day, sat: day, sun: day },
    timeZone: ZONE,
  };
}

/**
 * Offer `i`, inside every bench driver's window: tomorrow on their clock, starting between 08:00
 * and 16:00 and ending by 21:00 (an hour either way on a daylight-saving day), at $17–$28 an
 * hour (so some drivers' minimums refuse it).
 */
function offerInSchedule(i: number) {
  const area = SANDBOX_SERVICE_AREAS[i % SANDBOX_SERVICE_AREAS.length]!;
  const tomorrow = formatIsoDay(Date.now() + 24 * HOUR, ZONE);
  const start = startOfDay(tomorrow, ZONE) + (8 + (i % 9)) * HOUR;
  const hours = 3 + (i % 3);
  return {
    serviceAreaId: area.id,
    startTime: start,
    endTime: start + hours * HOUR,
    pay: hours * (17 + (i % 12)),
  };
}

function matcherThroughput(): string {
  const matchers = Array.from({ length: DRIVERS }, (_, i) => createOfferMatcher(randomFilters(i)));
  const offers: Offer[] = Array.from({ length: 1000 }, (_, i) => ({
    offerId: `o${i}`,
    ...offerInSchedule(i),
  }));
  const ctx = { now: Date.now(), wonBlocks: [] as Block[] };
  let accepted = 0;
  const started = performance.now();
  for (const offer of offers) for (const m of matchers) if (m(offer, ctx).accept) accepted++;
  const seconds = (performance.now() - started) / 1000;
  const perSecond = Math.round((offers.length * matchers.length) / seconds);
  return `  matcher (createOfferMatcher): ${perSecond.toLocaleString('en-US')} decisions/s (${accepted} accepts of ${(offers.length * matchers.length).toLocaleString('en-US')})`;
}

function percentile(sorted: number[], p: number): number | null {
  if (sorted.length === 0) return null;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

const fmt = (value: number | null) => (value === null ? 'none' : value.toFixed(1));

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  for (const line of await benchCatcher()) console.log(line);
}
