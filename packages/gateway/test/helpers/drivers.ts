// Drivers made for a test on a running gateway: an identity account, a Flex users row, a real id
// token, and a small JSON client for the /api endpoints that sends it.
import type { Gateway } from '../../src/server.js';
import type { UserRecord } from '../../src/storage/user-record.js';
import { insertUsers } from '../../src/storage/users.js';
import { checkoutAndPay } from './checkout.js';
import { type Client, client } from './json-client.js';
import { signIn } from './sign-in.js';

export { type Client, client } from './json-client.js';

let counter = 0;

/** A fresh phone number per call, in the +1 555 plan no fixture uses. */
export function freshPhone(): string {
  counter += 1;
  return `+1555${String(process.pid % 1000).padStart(3, '0')}${String(counter).padStart(4, '0')}`;
}

export async function addDriver(
  running: { gateway: Gateway; url: string },
  row: Partial<UserRecord> = {},
): Promise<{ phone: string; call: Client }> {
  const phone = row.phone_number ?? freshPhone();
  const password = 'Driver-pass-123';
  await running.gateway.identity.ensureAccount({
    phoneNumber: phone,
    password,
    name: 'Test Driver',
  });
  await insertUsers(running.gateway.db, [
    { product: 'flex', name: 'Test Driver', ...row, phone_number: phone },
  ]);
  const token = await signIn(running.url, running.gateway.config.clientId, phone, password);
  return { phone, call: client(running.url, token) };
}

/** The sandbox's card that always succeeds. */

/**
 * A driver who may invite friends: the phone verified (as every test account is) and one week
 * paid on the sandbox's hosted checkout.
 */
export async function addInviter(
  running: { gateway: Gateway; url: string },
  row: Partial<UserRecord> = {},
): Promise<{ phone: string; call: Client }> {
  const driver = await addDriver(running, row);
  const { page } = await checkoutAndPay(running.url, driver.call, { mode: 'payment', weeks: 1 });
  if (page.status !== 303) throw new Error(`the inviter's payment failed: ${page.status}`);
  return driver;
}
