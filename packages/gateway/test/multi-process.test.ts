// Two gateway processes on one PostgreSQL database: a table one of them has cached is rebuilt as
// soon as the other writes, because the version lives in the database, not in either process.
import { flexUsersResponseSchema } from '@blockcatch/sdk';
import { request } from 'undici';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { flexUserRow } from '../src/seed.js';
import { buildGateway, type Gateway } from '../src/server.js';
import { insertUsers } from '../src/storage/users.js';
import { POSTGRES_URL, uniqueSchema } from './helpers/database.js';
import { type RunningGateway, startGateway } from './helpers/gateway.js';
import { ADMIN, flexUsers } from './helpers/people.js';

const databaseSchema = uniqueSchema();
let first: RunningGateway;
let second: Gateway;
let secondUrl: string;

beforeAll(async () => {
  const shared = { databaseUrl: POSTGRES_URL, databaseSchema };
  first = await startGateway(shared);
  second = await buildGateway({ port: 0, logLevel: 'silent', seed: false, ...shared });
  await second.app.listen({ host: '127.0.0.1', port: 0 });
  const address = second.app.server.address();
  secondUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
});

afterAll(async () => {
  await second?.close();
  await first?.gateway.db.query(`DROP SCHEMA "${databaseSchema}" CASCADE`);
  await first?.gateway.close();
});

async function flexNames(url: string): Promise<string[]> {
  // The token the first process issued is valid on the second: they share the pool's key.
  const response = await request(`${url}/api/flex/v1/all-users-table`, {
    headers: first.as(ADMIN),
  });
  expect(response.statusCode).toBe(200);
  return flexUsersResponseSchema.parse(await response.body.json()).Items.map((u) => u.name);
}

it('serves a user written through another process on the next request', async () => {
  const before = await flexNames(first.url);
  expect(await flexNames(secondUrl)).toEqual(before);
  await insertUsers(second.db, [
    flexUserRow({
      ...flexUsers[1]!,
      phoneNumber: '+17135550999',
      name: 'Otro Proceso',
      referralCode: null,
    }),
  ]);
  expect(await flexNames(first.url)).toContain('Otro Proceso');
  await first.gateway.db.query(
    `UPDATE users SET name = 'Renamed' WHERE phone_number = '+17135550999'`,
  );
  const names = await flexNames(secondUrl);
  expect(names).toContain('Renamed');
  expect(names).not.toContain('Otro Proceso');
});
