// A small, real data set for API tests: generated drivers of both products, invitations, and the
// sandbox's three staff (owner with billing details, admin without, driver).
import {
  generateFlexUsers,
  generateInvitations,
  generateSparkUsers,
  generateStaff,
} from '../../../../fixtures/generate-data.js';
import { flexUserRow, sparkUserRow, staffUserRow } from '../../src/seed.js';
import type { Queryable } from '../../src/storage/db.js';
import { insertInvitations } from '../../src/storage/invitations.js';
import { insertUsers } from '../../src/storage/users.js';

export const flexUsers = generateFlexUsers(300, 7);
export const sparkUsers = generateSparkUsers(120, 7);
export const invitations = generateInvitations(flexUsers, 90, 7);
export const staff = generateStaff();

const [owner, admin, driver] = staff;
/** owner: admin with billing details; admin: admin without; driver: not an admin. */
export const OWNER = owner!.phoneNumber;
export const ADMIN = admin!.phoneNumber;
export const DRIVER = driver!.phoneNumber;

export async function insertPeople(db: Queryable): Promise<void> {
  await insertUsers(db, flexUsers.map(flexUserRow));
  await insertUsers(db, sparkUsers.map(sparkUserRow));
  await insertUsers(
    db,
    staff.map((member) => staffUserRow(member, Date.now())),
  );
  await insertInvitations(db, invitations);
}
