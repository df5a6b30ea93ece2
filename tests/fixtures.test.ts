// The sample data in fixtures/: it parses with the SDK's schemas, is what the generator makes
// for the default seed, and holds the cases the admin screens must cope with.
import { readFileSync } from 'node:fs';
import {
  flexUsersResponseSchema,
  invitationsResponseSchema,
  normalizePhone,
  referralsResponseSchema,
  signedInUserSchema,
  sparkUsersResponseSchema,
  templatesResponseSchema,
} from '@blockcatch/sdk';
import { describe, expect, it } from 'vitest';
import {
  COMMITTED_SET,
  generateDataset,
  generateFlexUsers,
  generateSparkUsers,
  REFERENCE_DATE,
} from '../fixtures/generate-data.js';

function committed(name: string): unknown {
  return JSON.parse(readFileSync(new URL(`../fixtures/data/${name}`, import.meta.url), 'utf8'));
}

const files = {
  flexUsers: committed('flex-users.json'),
  sparkUsers: committed('spark-users.json'),
  invitations: committed('invitations.json'),
  referrals: committed('referrals.json'),
  templates: committed('templates.json'),
  staff: committed('staff.json'),
};

const flexUsers = flexUsersResponseSchema.parse({ Items: files.flexUsers }).Items;
const sparkUsers = sparkUsersResponseSchema.parse({ Items: files.sparkUsers }).Items;
const invitations = invitationsResponseSchema.parse({ Items: files.invitations }).Items;
const referrals = referralsResponseSchema.parse({ Items: files.referrals }).Items;
const allUsers = [...flexUsers, ...sparkUsers];

const DAY = 86_400_000;
/** +1, then an area code and an exchange that do not start with 0 or 1. */
const NANP = /^\+1[2-9]\d{2}[2-9]\d{6}$/;

describe('committed fixtures', () => {
  it('parse with the SDK schemas', () => {
    expect(flexUsers).toHaveLength(400);
    expect(sparkUsers).toHaveLength(100);
    expect(invitations).toHaveLength(150);
    expect(referrals.length).toBeGreaterThan(0);
    expect(templatesResponseSchema.parse({ Items: files.templates }).Items.length).toBeGreaterThan(
      0,
    );
    const staff = signedInUserSchema.array().parse(files.staff);
    expect(staff).toHaveLength(3);
  });

  it('are exactly what the generator writes for the default seed', () => {
    expect(files).toStrictEqual(generateDataset(COMMITTED_SET));
  });

  it('give every user a distinct, valid US number in E.164', () => {
    const phones = allUsers.map((u) => u.phoneNumber);
    for (const phone of phones) expect(phone).toMatch(NANP);
    expect(new Set(phones).size).toBe(phones.length);
  });

  it('use only the 555-0100 to 555-0199 numbers reserved for fiction', () => {
    const staffPhones = signedInUserSchema
      .array()
      .parse(files.staff)
      .map((s) => s.phoneNumber);
    const invited = invitations.map((i) => normalizePhone(i.phoneNumber));
    for (const phone of [...allUsers.map((u) => u.phoneNumber), ...staffPhones, ...invited]) {
      if (phone !== null) expect(phone).toMatch(/^\+1\d{3}55501\d{2}$/);
    }
  });

  it('keep the flags consistent with each other and with the dates', () => {
    for (const user of allUsers) {
      expect(user.goodStanding).toBe(
        user.expirationDateTimestamp !== null && user.expirationDateTimestamp > REFERENCE_DATE,
      );
      expect(user.expirationDate === null).toBe(user.expirationDateTimestamp === null);
      if (user.expirationDate !== null) {
        expect(Date.parse(user.expirationDate)).toBe(user.expirationDateTimestamp);
        expect(user.expirationDate.endsWith('Z')).toBe(true);
      }
      expect(user.createDateTimestamp).toBeGreaterThanOrEqual(REFERENCE_DATE - 730 * DAY);
      expect(user.createDateTimestamp).toBeLessThan(REFERENCE_DATE);
    }
    const setUp = allUsers.filter((u) => u.setupComplete);
    const setUpWithoutProxy = setUp.filter((u) => !u.proxyInstalled);
    expect(setUpWithoutProxy.length / setUp.length).toBeLessThan(0.05);
    expect(allUsers.some((u) => u.goodStanding)).toBe(true);
    expect(allUsers.some((u) => u.expirationDate === null)).toBe(true);
    expect(allUsers.some((u) => !u.goodStanding && u.expirationDate !== null)).toBe(true);
    expect(allUsers.some((u) => u.status === 'start')).toBe(true);
    expect(allUsers.some((u) => u.stripeExpressId?.startsWith('acct_'))).toBe(true);
  });

  it('point every user referral at a listed referral code', () => {
    const codes = new Set(referrals.map((r) => r.referralCode));
    expect(codes.size).toBe(referrals.length);
    const referred = allUsers.filter((u) => u.referral !== null);
    expect(referred.length).toBeGreaterThan(allUsers.length * 0.1);
    for (const user of referred) expect(codes.has(user.referral ?? '')).toBe(true);
  });

  it('spread users over Flex regions and Spark delivery areas', () => {
    const regions = new Set(flexUsers.map((u) => u.humanRegion).filter((r) => r !== null));
    expect(regions).toContain('Miami');
    expect(regions.size).toBeGreaterThanOrEqual(8);
    const areas = new Set(sparkUsers.map((u) => u.driverOptions.deliveryArea));
    expect(areas.size).toBeGreaterThanOrEqual(8);
  });

  it('invite the same phone again in another format', () => {
    const byPhone = new Map<string, Set<string>>();
    for (const { phoneNumber } of invitations) {
      const key = normalizePhone(phoneNumber);
      if (key === null) continue;
      byPhone.set(key, (byPhone.get(key) ?? new Set()).add(phoneNumber));
    }
    const retyped = [...byPhone.values()].filter((spellings) => spellings.size > 1);
    expect(retyped.length).toBeGreaterThanOrEqual(3);
  });

  it('type invitation phones in many formats, including 01 and a few invalid ones', () => {
    const shapes = new Set(invitations.map((i) => i.phoneNumber.replace(/\d/g, '9')));
    expect(shapes.size).toBeGreaterThanOrEqual(6);
    expect(invitations.some((i) => /^01\d{10}$/.test(i.phoneNumber))).toBe(true);
    const invalid = invitations.filter((i) => normalizePhone(i.phoneNumber) === null);
    expect(invalid.length).toBeGreaterThanOrEqual(2);
  });

  it('mix invitations of registered and unregistered friends, some with freeWeek', () => {
    const registered = new Set(flexUsers.map((u) => u.phoneNumber));
    const matched = invitations.filter((i) => registered.has(normalizePhone(i.phoneNumber) ?? ''));
    expect(matched.length).toBeGreaterThan(20);
    expect(invitations.length - matched.length).toBeGreaterThan(20);
    expect(invitations.filter((i) => i.freeWeek).length).toBeGreaterThan(5);
    // The free week is granted after the friend's first payment, so only paying friends carry it.
    const paid = new Set(
      flexUsers.filter((u) => u.expirationDate !== null).map((u) => u.phoneNumber),
    );
    for (const invitation of invitations.filter((i) => i.freeWeek)) {
      expect(paid.has(normalizePhone(invitation.phoneNumber) ?? '')).toBe(true);
    }
  });

  it('date invitations within the 120 days before the reference date', () => {
    for (const { dateInvitedTimestamp } of invitations) {
      expect(dateInvitedTimestamp).toBeGreaterThanOrEqual(REFERENCE_DATE - 120 * DAY);
      expect(dateInvitedTimestamp).toBeLessThan(REFERENCE_DATE);
    }
  });

  it('offer English and Spanish WhatsApp templates with a HEADER and a BODY', () => {
    const templates = templatesResponseSchema.parse({ Items: files.templates }).Items;
    expect(new Set(templates.map((t) => t.language.slice(0, 2)))).toEqual(new Set(['en', 'es']));
    for (const template of templates) {
      expect(template.components.map((c) => c.type)).toEqual(['HEADER', 'BODY']);
    }
  });

  it('seed an owner, an admin and a driver with sandbox passwords', () => {
    const staff = signedInUserSchema
      .extend({ password: signedInUserSchema.shape.name.min(8) })
      .array()
      .parse(files.staff);
    const [owner, admin, driver] = staff;
    expect(owner?.role).toEqual({
      role: 'owner',
      properties: { billingDetails: true, multiSegmentSms: true },
    });
    expect(owner?.isAdmin).toBe(true);
    expect(admin?.role?.role).toBe('admin');
    expect(admin?.role?.properties.billingDetails).toBe(false);
    expect(admin?.isAdmin).toBe(true);
    expect(driver).toMatchObject({
      isAdmin: false,
      proxyInstalled: true,
      setupComplete: true,
      goodStanding: true,
    });
    const userPhones = new Set(allUsers.map((u) => u.phoneNumber));
    for (const account of staff) expect(userPhones.has(account.phoneNumber)).toBe(false);
  });
});

describe('generator', () => {
  it('gives the same data for the same seed and different data for another', () => {
    const a = generateDataset({ users: 300, seed: 7 });
    expect(generateDataset({ users: 300, seed: 7 })).toStrictEqual(a);
    const b = generateDataset({ users: 300, seed: 8 });
    expect(b.flexUsers.map((u) => u.name)).not.toEqual(a.flexUsers.map((u) => u.name));
    expect(b.invitations).not.toEqual(a.invitations);
  });

  it('keeps phone numbers unique and valid past the fictional range', () => {
    const phones = [
      ...generateFlexUsers(40_000, 11).map((u) => u.phoneNumber),
      ...generateSparkUsers(10_000, 11).map((u) => u.phoneNumber),
    ];
    expect(new Set(phones).size).toBe(phones.length);
    expect(phones.filter((phone) => !NANP.test(phone))).toEqual([]);
  });

  it('handles tiny data sets', () => {
    const tiny = generateDataset({ users: 1, seed: 1 });
    expect(tiny.flexUsers).toHaveLength(1);
    expect(tiny.sparkUsers).toHaveLength(0);
    expect(flexUsersResponseSchema.parse({ Items: tiny.flexUsers }).Items).toHaveLength(1);
  });
});
