// The block catcher with 1,000 drivers on the sandbox platform, in one gateway process: the time
// from an offer being published to each accept call for it (p50, p99), and the share of offers
// some driver wanted that one of ours won before the simulated other drivers took it.
// Run twice: with the sandbox's in-process "new offers" signal (pollers poll at once, within the
// account's pace) and with interval polling alone, which is all a real platform allows.
// Run alone: npx tsx --conditions=source packages/gateway/bench/catcher.bench.ts
import { createHash, randomBytes } from 'node:crypto';
import { pathToFileURL } from 'node:url';
import { type Block, createOfferMatcher, type DriverFilters, type Offer } from '@blockcatch/sdk';
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
const OFFERS = 30;
const OFFER_GAP_MS = 300;
const HOUR = 3_600_000;

export async function benchCatcher(): Promise<string[]> {
  const lines = [
    `catcher: ${DRIVERS.toLocaleString('en-US')} drivers, ${OFFERS} offers ${OFFER_GAP_MS} ms apart, one process, PGlite; ` +
      'sandbox limit 5 polls/s per account, others take an offer 2–8 s after it appears',
  ];
  lines.push(...(await runOnce({ signal: true, pollIntervalMs: 1000 })));
  lines.push(...(await runOnce({ signal: false, pollIntervalMs: 250 })));
  lines.push(matcherThroughput());
  return lines;
}

async function runOnce(mode: { signal: boolean; pollIntervalMs: number }): Promise<string[]> {
  const db = await openDatabase({ kind: 'pglite' });
  await migrate(db);
  const sandbox = createSandboxPlatform({
    db,
    sendCode: async () => {},
    options: { offerIntervalMs: 0, failureRate: 0 },
  });
  const filters = await addDrivers(db);
  const publishedAt = new Map<string, number>();
  const acceptDelays: number[] = [];
  const firstAccept = new Map<string, number>();
  const wonBy = new Map<string, string>();
  const sightDelays: number[] = [];
  const sighted = new Set<string>();
  // Measures at the platform's door: the moment the catcher calls acceptOffer.
  const measured: DeliveryPlatform = {
    ...sandbox,
    onNewOffers: mode.signal ? sandbox.onNewOffers : undefined,
    async listOffers(session) {
      const offers = await sandbox.listOffers(session);
      const at = performance.now();
      for (const offer of offers) {
        const published = publishedAt.get(offer.offerId);
        const key = `${session.accountId} ${offer.offerId}`;
        if (published === undefined || sighted.has(key)) continue;
        sighted.add(key);
        sightDelays.push(at - published);
      }
      return offers;
    },
    async acceptOffer(session, offerId) {
      const at = performance.now();
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
  for (let i = 0; i < OFFERS; i++) {
    const offer = randomOffer(i);
    const start = performance.now();
    const published = await sandbox.publishOffer(offer);
    publishedAt.set(published.offerId, start);
    if (matchers.some((m, d) => m(published, { now: Date.now(), wonBlocks: won[d]! }).accept)) {
      wanted.add(published.offerId);
    }
    await sleep(OFFER_GAP_MS);
  }
  await sleep(1500);
  await catcher.stop();
  await sandbox.stop();
  await db.close();

  const wonWanted = [...wanted].filter((id) => wonBy.has(id)).length;
  const delays = [...acceptDelays].sort((a, b) => a - b);
  const firsts = [...firstAccept.values()].sort((a, b) => a - b);
  const sights = [...sightDelays].sort((a, b) => a - b);
  const label = mode.signal
    ? `with the sandbox's new-offer signal (poll ≤ every 250 ms on signal, else every ${mode.pollIntervalMs} ms)`
    : `interval polling only, every ${mode.pollIntervalMs} ms (what a real platform allows)`;
  return [
    `  ${label}`,
    `    publish → accept call, all ${delays.length} calls: p50 ${pct(delays, 50)} ms, p99 ${pct(delays, 99)} ms; ` +
      `first call per offer: p50 ${pct(firsts, 50)} ms, p99 ${pct(firsts, 99)} ms`,
    `    publish → each driver's first sight of an offer (${sights.length.toLocaleString('en-US')}): ` +
      `p50 ${pct(sights, 50)} ms, p99 ${pct(sights, 99)} ms`,
    `    offers some driver wanted: ${wanted.size} of ${OFFERS}; won by one of ours: ${wonWanted} (${((100 * wonWanted) / Math.max(1, wanted.size)).toFixed(0)}%)`,
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
  const day = [{ start: '06:00', end: '22:00' }];
  return {
    warehouses: [areas[i % areas.length]!, areas[(i * 7 + 3) % areas.length]!],
    minHourlyPay: 18 + (i % 9),
    minBlockPay: 40,
    timeBufferMinutes: 30,
    weeklySchedule: { mon: day, tue: day, wed: day, thu: day, fri: day, sat: day, sun: day },
    timeZone: 'America/Chicago',
  };
}

function randomOffer(i: number) {
  const area = SANDBOX_SERVICE_AREAS[i % SANDBOX_SERVICE_AREAS.length]!;
  const start = Math.ceil((Date.now() + 24 * HOUR + (i % 12) * HOUR) / 900_000) * 900_000;
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
    ...randomOffer(i),
  }));
  const ctx = { now: Date.now(), wonBlocks: [] as Block[] };
  let accepted = 0;
  const started = performance.now();
  for (const offer of offers) for (const m of matchers) if (m(offer, ctx).accept) accepted++;
  const seconds = (performance.now() - started) / 1000;
  const perSecond = Math.round((offers.length * matchers.length) / seconds);
  return `  matcher (createOfferMatcher): ${perSecond.toLocaleString('en-US')} decisions/s (${accepted} accepts of ${(offers.length * matchers.length).toLocaleString('en-US')})`;
}

function pct(sorted: number[], p: number): string {
  if (sorted.length === 0) return 'n/a';
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!.toFixed(1);
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  for (const line of await benchCatcher()) console.log(line);
}
