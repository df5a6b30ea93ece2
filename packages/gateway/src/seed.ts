// Loads the sample data in fixtures/data into an empty database on first start, so a fresh sandbox
// has drivers, invitations, templates and staff to sign in as. The fixtures are dated from a fixed
// day; seeding moves every date by the time since then, so a sandbox started on any day has the
// same numbers of active, expiring and expired users. It never touches a database that already
// holds users, and an advisory lock keeps two processes starting together from both seeding.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  flexUserSchema,
  invitationSchema,
  MARKETING_CONSENT_VERSION,
  referralSchema,
  signedInUserSchema,
  sparkUserSchema,
  WEEK_MS,
  whatsappTemplateSchema,
} from '@blockcatch/sdk';
import { z } from 'zod';
import { consentWords } from './consent/texts.js';
import type { SeededDriver } from './driver/seeded-drivers.js';
import type { Identity } from './identity/types.js';
import type { Db, Queryable } from './storage/db.js';
import { insertInvitations } from './storage/invitations.js';
import { recordSampleConsents } from './storage/marketing-consent.js';
import { upsertTemplates } from './storage/templates.js';
import { countUsers, insertUsers, type NewUser } from './storage/users.js';

const SEED_LOCK = 727_002;

/**
 * The instant the fixtures take as "now" (fixtures/generate-data.ts's REFERENCE_DATE): seeding
 * moves every fixture date by the time between it and the seeding moment.
 */
export const FIXTURES_REFERENCE_DATE = Date.UTC(2026, 10, 1);

/** From src/ and from dist/ alike, three levels up is the repository root. */
export const DEFAULT_FIXTURES_DIR = fileURLToPath(
  new URL('../../../fixtures/data/', import.meta.url),
);

// The fixture users carry the user's own referral code beside the API's fields.
const ownCode = { referralCode: z.string().min(1).nullable().default(null) };
const staffSchema = signedInUserSchema.extend({ password: z.string().min(8) });

const FILES = {
  flexUsers: ['flex-users.json', z.array(flexUserSchema.extend(ownCode))],
  sparkUsers: ['spark-users.json', z.array(sparkUserSchema.extend(ownCode))],
  invitations: ['invitations.json', z.array(invitationSchema)],
  referrals: ['referrals.json', z.array(referralSchema)],
  templates: ['templates.json', z.array(whatsappTemplateSchema)],
  staff: ['staff.json', z.array(staffSchema)],
} as const;

type Fixtures = { [K in keyof typeof FILES]: z.infer<(typeof FILES)[K][1]> };
export type StaffFixture = z.infer<typeof staffSchema>;

export interface SeedReport {
  /** True when this start loaded the fixtures; false when the database already had users. */
  seeded: boolean;
  counts: { flexUsers: number; sparkUsers: number; invitations: number; templates: number };
  /** The sandbox's staff accounts (owner, admin, driver) with their public sandbox passwords. */
  staff: { role: string; name: string; phoneNumber: string; password: string }[];
}

class SeedError extends Error {
  override name = 'SeedError';
}

/** Reads and validates every fixture file; a file that is missing or malformed is named. */
export async function readFixtures(dir: string): Promise<Fixtures> {
  const entries = await Promise.all(
    Object.entries(FILES).map(async ([key, [file, schema]]) => {
      const path = join(dir, file);
      let text: string;
      try {
        text = await readFile(path, 'utf8');
      } catch {
        throw new SeedError(
          `Seed file ${path} is missing: run \`npm run fixtures\`, or start with --no-seed.`,
        );
      }
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch (error) {
        throw new SeedError(`Seed file ${path} is not JSON: ${(error as Error).message}`);
      }
      // A file may hold the list itself or an API-shaped `{ Items: [...] }`.
      const list =
        json && typeof json === 'object' && 'Items' in json
          ? (json as { Items: unknown }).Items
          : json;
      const parsed = (schema as z.ZodType).safeParse(list);
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        throw new SeedError(
          `Seed file ${path} does not match its schema at ${issue?.path.join('.') || '(root)'}: ${issue?.message}`,
        );
      }
      return [key, parsed.data] as const;
    }),
  );
  return Object.fromEntries(entries) as Fixtures;
}

export async function seedFixtures(deps: {
  db: Db;
  identity: Pick<Identity, 'ensureAccount'>;
  fixturesDir?: string;
  /** Gives the seeded Flex drivers the platform link and filters their flags say they have. */
  setUpDrivers?(tx: Queryable, drivers: readonly SeededDriver[], now: number): Promise<void>;
  /** The seeding moment the fixture dates are moved to. */
  now?: number;
}): Promise<SeedReport> {
  const now = deps.now ?? Date.now();
  const fixtures = shiftFixtures(
    await readFixtures(deps.fixturesDir ?? DEFAULT_FIXTURES_DIR),
    now - FIXTURES_REFERENCE_DATE,
  );
  const staff = fixtures.staff.map((s) => ({
    role: staffRole(s),
    name: s.name,
    phoneNumber: s.phoneNumber,
    password: s.password,
  }));
  const counts = { flexUsers: 0, sparkUsers: 0, invitations: 0, templates: 0 };
  // A database with users is someone's data: leave it, and never add the public staff passwords.
  if ((await countUsers(deps.db)) > 0) return { seeded: false, counts, staff };

  // Accounts first: ensureAccount is idempotent, so a crash before the data lands is repaired by
  // the next start, which still finds the users table empty.
  for (const member of fixtures.staff) {
    const account = {
      phoneNumber: member.phoneNumber,
      password: member.password,
      name: member.name,
    };
    // A second process may create the same account at the same moment; its retry sees it exists.
    await deps.identity.ensureAccount(account).catch(() => deps.identity.ensureAccount(account));
  }

  const seeded = await deps.db.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [SEED_LOCK]);
    if ((await countUsers(tx)) > 0) return false;
    await insertFixtures(tx, fixtures, counts, now);
    await deps.setUpDrivers?.(tx, await seededDrivers(tx, fixtures.staff), now);
    return true;
  });
  return { seeded, counts, staff };
}

async function insertFixtures(
  tx: Queryable,
  fixtures: Fixtures,
  counts: SeedReport['counts'],
  now: number,
) {
  counts.flexUsers = await insertUsers(tx, fixtures.flexUsers.map(flexUserRow));
  counts.sparkUsers = await insertUsers(tx, fixtures.sparkUsers.map(sparkUserRow));
  await insertUsers(
    tx,
    fixtures.staff.map((member) => staffUserRow(member, now)),
  );
  await recordSampleConsents(tx, MARKETING_CONSENT_VERSION, consentWords('sign-up', 'en'));
  counts.invitations = await insertInvitations(tx, fixtures.invitations);
  counts.templates = await upsertTemplates(tx, fixtures.templates);
}

/** The fixtures with every date moved by `by` milliseconds. */
function shiftFixtures(fixtures: Fixtures, by: number): Fixtures {
  const later = (ts: number | null) => (ts === null ? null : ts + by);
  const user = <U extends FixtureUser>(u: U): U => ({
    ...u,
    createDateTimestamp: u.createDateTimestamp + by,
    expirationDateTimestamp: later(u.expirationDateTimestamp),
    expirationDate:
      u.expirationDateTimestamp === null
        ? null
        : new Date(u.expirationDateTimestamp + by).toISOString(),
  });
  return {
    ...fixtures,
    flexUsers: fixtures.flexUsers.map(user),
    sparkUsers: fixtures.sparkUsers.map(user),
    invitations: fixtures.invitations.map((i) => ({
      ...i,
      dateInvitedTimestamp: i.dateInvitedTimestamp + by,
    })),
    staff: fixtures.staff.map((s) => ({
      ...s,
      expirationDateTimestamp: later(s.expirationDateTimestamp ?? null),
    })),
  };
}

/** The Flex users just inserted whose flags need a platform link or filters behind them. */
async function seededDrivers(
  tx: Queryable,
  staff: readonly StaffFixture[],
): Promise<SeededDriver[]> {
  const demoPhones = new Set(staff.filter((s) => !s.isAdmin).map((s) => s.phoneNumber));
  const rows = await tx.query<{
    id: string;
    phone_number: string;
    human_region: string | null;
    proxy_installed: boolean;
    setup_complete: boolean;
  }>(
    `SELECT id, phone_number, human_region, proxy_installed, setup_complete FROM users
     WHERE product = 'flex' AND (proxy_installed OR setup_complete) ORDER BY create_date_ts, id`,
  );
  return rows.map((row) => ({
    userId: row.id,
    phoneNumber: row.phone_number,
    region: row.human_region,
    connected: row.proxy_installed,
    setUp: row.setup_complete,
    demo: demoPhones.has(row.phone_number),
  }));
}

type FixtureUser = Fixtures['flexUsers'][number] | Fixtures['sparkUsers'][number];
export type FlexFixtureUser = Fixtures['flexUsers'][number];
export type SparkFixtureUser = Fixtures['sparkUsers'][number];

function userRowBase(u: FixtureUser) {
  return {
    phone_number: u.phoneNumber,
    name: u.name,
    referral: u.referral,
    referral_code: u.referralCode,
    good_standing: u.goodStanding,
    proxy_installed: u.proxyInstalled,
    setup_complete: u.setupComplete,
    create_date_ts: u.createDateTimestamp,
    // expirationDate is the same instant as text; the row keeps the number and derives the text.
    expiration_ts: u.expirationDateTimestamp,
    stripe_express_id: u.stripeExpressId,
    status: u.status,
  };
}

/** A Flex user as the API shows it (plus its own referral code) → its users-table row. */
export function flexUserRow(u: FlexFixtureUser): NewUser {
  return { ...userRowBase(u), product: 'flex', human_region: u.humanRegion };
}

export function sparkUserRow(u: SparkFixtureUser): NewUser {
  return { ...userRowBase(u), product: 'spark', delivery_area: u.driverOptions.deliveryArea };
}

/** Service the staff accounts have at least, counted from seeding. */
const STAFF_SERVICE_WEEKS = 4;

/**
 * Staff sign in to the Flex app, so their rows are Flex users carrying their permissions. Their
 * service runs at least STAFF_SERVICE_WEEKS from `now`, so that a sandbox left running for days
 * does not greet its demo accounts with the payment page.
 */
export function staffUserRow(s: StaffFixture, now: number): NewUser {
  return {
    product: 'flex',
    phone_number: s.phoneNumber,
    name: s.name,
    is_admin: s.isAdmin,
    role: s.role?.role ?? null,
    can_see_billing: s.role?.properties.billingDetails ?? false,
    can_send_multi_segment: s.role?.properties.multiSegmentSms ?? false,
    good_standing: s.goodStanding,
    proxy_installed: s.proxyInstalled,
    setup_complete: s.setupComplete,
    expiration_ts: Math.max(s.expirationDateTimestamp ?? 0, now + STAFF_SERVICE_WEEKS * WEEK_MS),
    status: 'start',
  };
}

/** owner, admin or driver: what the start banner calls each staff account. */
function staffRole(member: StaffFixture): string {
  if (member.role?.role) return member.role.role;
  return member.isAdmin ? 'admin' : 'driver';
}
