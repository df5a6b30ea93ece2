// A driver's private calendar address on a real gateway, read with a real iCalendar parser the way
// a calendar app does: their won blocks with station and pay, nobody else's, in their language;
// a new address or turning it off revokes the old at once; its secret never reaches the log.
import ICAL from 'ical.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordOffers } from '../src/storage/driver-offers.js';
import { addDriver, type DriverGateway, HOUR, startDriverGateway } from './driver-harness.js';

let running: DriverGateway;
const logLines: string[] = [];

beforeAll(async () => {
  running = await startDriverGateway(
    { logLevel: 'info', catcher: { enabled: false } },
    { logStream: { write: (line) => void logLines.push(line) } },
  );
});

afterAll(async () => {
  await running?.close();
});

async function userId(phone: string): Promise<string> {
  const [row] = await running.gateway.db.query<{ id: string }>(
    'SELECT id FROM users WHERE phone_number = $1',
    [phone],
  );
  return row!.id;
}

/** Won blocks recorded for the driver, as the catcher records them. */
async function won(
  phone: string,
  blocks: { id: string; start: number; hours: number; pay: number; area?: string }[],
) {
  const user = await userId(phone);
  await recordOffers(
    running.gateway.db,
    blocks.map((b) => ({
      userId: user,
      offerId: b.id,
      kind: 'won' as const,
      reason: null,
      serviceAreaId: b.area ?? 'DAU1',
      startTime: b.start,
      endTime: b.start + b.hours * HOUR,
      pay: b.pay,
      seenAt: b.start - 5 * HOUR,
    })),
  );
}

/** Fetches an address without signing in, as a calendar app does. */
const fetchFeed = (url: string) => fetch(url);

function events(ics: string) {
  const calendar = new ICAL.Component(ICAL.parse(ics));
  return calendar.getAllSubcomponents('vevent').map((v) => new ICAL.Event(v));
}

// Whole hours from now, so the feed's window (30 days back, 90 ahead) holds them.
const base = Math.ceil(Date.now() / HOUR) * HOUR;

describe('the calendar feed', () => {
  it("serves the driver's won blocks with station and pay to a calendar app, and nobody else's", async () => {
    const phone = '+15125550701';
    const driver = await addDriver(running, phone);
    const other = '+15125550702';
    await addDriver(running, other);
    await won(phone, [
      { id: 'feed-a', start: base + 24 * HOUR, hours: 4, pay: 92.5 },
      { id: 'feed-b', start: base - 3 * 24 * HOUR, hours: 3.5, pay: 80, area: 'DHO2' },
    ]);
    await won(other, [{ id: 'feed-other', start: base + 48 * HOUR, hours: 4, pay: 100 }]);

    expect((await driver.get('/calendar-feed')).body).toEqual({ active: false, createdAt: null });
    const made = await driver.post('/calendar-feed');
    expect(made.status).toBe(200);
    expect(made.headers.get('cache-control')).toBe('no-store');
    const { url } = made.body;
    expect(url).toMatch(/\/api\/calendar\/[\w-]{43}\.ics$/);
    expect((await driver.get('/calendar-feed')).body).toEqual({
      active: true,
      createdAt: made.body.createdAt,
    });

    const answer = await fetchFeed(url);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('text/calendar; charset=utf-8');
    const parsed = events(await answer.text());
    expect(parsed.map((e) => e.uid).sort()).toEqual(['feed-a@blockcatch', 'feed-b@blockcatch']);
    const next = parsed.find((e) => e.uid === 'feed-a@blockcatch')!;
    expect(next.summary).toBe('Block at Austin (DAU1), $92.50');
    expect(next.location).toBe('Austin (DAU1)');
    expect(next.description).toBe('Won by BlockCatch. Pay: $92.50 ($23.13 an hour).');
    expect(next.startDate.toJSDate().getTime()).toBe(base + 24 * HOUR);
    expect(next.endDate.toJSDate().getTime()).toBe(base + 28 * HOUR);
    const past = parsed.find((e) => e.uid === 'feed-b@blockcatch')!;
    expect(past.summary).toBe('Block at Houston (DHO2), $80.00');
    expect(past.duration.toSeconds()).toBe(3.5 * 3600);
  });

  it("speaks the driver's language", async () => {
    const phone = '+15125550703';
    const driver = await addDriver(running, phone);
    await running.gateway.db.query(
      "UPDATE users SET preferred_language = 'es' WHERE phone_number = $1",
      [phone],
    );
    await won(phone, [{ id: 'feed-es', start: base + 30 * HOUR, hours: 4, pay: 100 }]);
    const { url } = (await driver.post('/calendar-feed')).body;
    const [event] = events(await (await fetchFeed(url)).text());
    expect(event!.summary).toMatch(/^Bloque en Austin \(DAU1\), /);
    expect(event!.description).toContain('por hora');
  });

  it('stops serving an address once a new one is made or it is turned off', async () => {
    const phone = '+15125550704';
    const driver = await addDriver(running, phone);
    const first = (await driver.post('/calendar-feed')).body.url;
    expect((await fetchFeed(first)).status).toBe(200);
    const second = (await driver.post('/calendar-feed')).body.url;
    expect(second).not.toBe(first);
    const revoked = await fetchFeed(first);
    expect(revoked.status).toBe(404);
    expect(((await revoked.json()) as { code: string }).code).toBe('not_found');
    expect((await fetchFeed(second)).status).toBe(200);
    expect((await driver.delete('/calendar-feed')).body).toEqual({
      active: false,
      createdAt: null,
    });
    expect((await fetchFeed(second)).status).toBe(404);
  });

  it('refuses guessed and malformed addresses without reading them, and needs a signed-in driver to make one', async () => {
    const unknown = `${running.url}/api/calendar/${'A'.repeat(43)}.ics`;
    expect((await fetchFeed(unknown)).status).toBe(404);
    for (const bad of ['short.ics', `${'A'.repeat(43)}.txt`, `${'A'.repeat(56)}.ics`]) {
      const refused = await fetchFeed(`${running.url}/api/calendar/${bad}`);
      expect(refused.status, bad.slice(0, 20)).toBe(400);
      expect(((await refused.json()) as { code: string }).code).toBe('validation');
    }
    const anonymous = await fetch(`${running.url}/api/flex/v1/calendar-feed`, { method: 'POST' });
    expect(anonymous.status).toBe(401);
  });

  it('never writes an address secret to the log', async () => {
    const driver = await addDriver(running, '+15125550705');
    const { url } = (await driver.post('/calendar-feed')).body;
    const secret = new URL(url).pathname.split('/').pop()!.slice(0, -4);
    await fetchFeed(url);
    await fetchFeed(`${url}?x=1`);
    await fetchFeed(url.replace('.ics', '.icsx'));
    const log = logLines.join('');
    expect(log).toContain('/api/calendar/[secret]');
    expect(log).not.toContain(secret);
  });
});
