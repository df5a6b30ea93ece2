// What seeding gives the sample drivers so that their flags hold: a driver marked connected gets a
// signed-in sandbox delivery account, one marked set up gets saved filters. The sandbox's demo
// driver gets broad filters, so it is searching within seconds of the start and wins blocks soon.
import { type DriverFilters, WEEKDAYS, type WeeklySchedule } from '@blockcatch/sdk';
import type { CredentialCipher } from '../platform/credential-cipher.js';
import { provisionSandboxAccounts } from '../platform/sandbox.js';
import { SANDBOX_SERVICE_AREAS } from '../platform/service-areas.js';
import type { Queryable } from '../storage/db.js';

export interface SeededDriver {
  userId: string;
  phoneNumber: string;
  /** The Flex region the fixtures give, or null. */
  region: string | null;
  connected: boolean;
  setUp: boolean;
  /** The sandbox's demo driver account (staff.json's driver). */
  demo: boolean;
}

/** Fixture regions that have a sandbox service area; drivers elsewhere pick by their number. */
const AREAS_BY_REGION: Record<string, string[]> = {
  Houston: ['DHO2'],
  Dallas: ['DFW6'],
  'San Antonio': ['DAU1'],
  Miami: ['DMI3'],
  'New York': ['DNY4'],
};

const ALL_WEEK = (windows: WeeklySchedule['mon']): WeeklySchedule =>
  Object.fromEntries(WEEKDAYS.map((day) => [day, windows])) as WeeklySchedule;

/** Broad enough to take most sandbox offers: every area, $20/h, any hour from 05:00. */
function demoDriverFilters(): DriverFilters {
  return {
    warehouses: SANDBOX_SERVICE_AREAS.map((area) => area.id),
    minHourlyPay: 20,
    minBlockPay: 0,
    timeBufferMinutes: 15,
    weeklySchedule: ALL_WEEK([{ start: '05:00', end: '24:00' }]),
    timeZone: 'America/Chicago',
  };
}

/** A plausible set of filters for a sample driver, the same for the same phone number. */
function sampleDriverFilters(driver: Pick<SeededDriver, 'phoneNumber' | 'region'>): DriverFilters {
  const n = Number(driver.phoneNumber.replace(/\D/g, '').slice(-4)) || 0;
  const warehouses = (driver.region && AREAS_BY_REGION[driver.region]) || [
    SANDBOX_SERVICE_AREAS[n % SANDBOX_SERVICE_AREAS.length]!.id,
  ];
  const area = SANDBOX_SERVICE_AREAS.find((a) => a.id === warehouses[0])!;
  const mornings = n % 3 === 0;
  const schedule = ALL_WEEK(
    mornings ? [{ start: '06:00', end: '14:00' }] : [{ start: '10:00', end: '22:00' }],
  );
  if (n % 2 === 0) schedule.sun = [];
  return {
    warehouses,
    minHourlyPay: 22 + (n % 7),
    minBlockPay: 40 + (n % 5) * 10,
    timeBufferMinutes: 30 + (n % 4) * 15,
    weeklySchedule: schedule,
    timeZone: area.timeZone,
  };
}

/** Links and filters for the seeded drivers, in the seeding transaction. */
export async function setUpSeededDrivers(
  tx: Queryable,
  cipher: CredentialCipher,
  drivers: readonly SeededDriver[],
  now: number,
): Promise<void> {
  const connected = drivers.filter((d) => d.connected);
  const accounts = connected.map((d) => ({
    email: `driver-${d.phoneNumber.replace(/\D/g, '')}@sandbox.blockcatch.test`,
    phoneNumber: d.phoneNumber,
  }));
  const sessions = await provisionSandboxAccounts(tx, accounts, now);
  if (connected.length > 0) {
    await tx.query(
      `INSERT INTO driver_platform_links (user_id, state, credentials_enc, session_enc, updated_ts)
       SELECT unnest($1::text[]), 'connected', unnest($2::text[]), unnest($3::text[]), $4
       ON CONFLICT (user_id) DO NOTHING`,
      [
        connected.map((d) => d.userId),
        // The delivery-account credentials as the sign-in would have kept them.
        accounts.map((a) => cipher.seal({ email: a.email, password: null })),
        sessions.map((s) => cipher.seal(s)),
        now,
      ],
    );
  }
  const setUp = drivers.filter((d) => d.setUp);
  if (setUp.length > 0) {
    await tx.query(
      `INSERT INTO driver_settings (user_id, filters, updated_ts)
       SELECT unnest($1::text[]), unnest($2::jsonb[]), $3
       ON CONFLICT (user_id) DO NOTHING`,
      [
        setUp.map((d) => d.userId),
        setUp.map((d) => JSON.stringify(d.demo ? demoDriverFilters() : sampleDriverFilters(d))),
        now,
      ],
    );
  }
}
