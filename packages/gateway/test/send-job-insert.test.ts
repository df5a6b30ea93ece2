// A job's recipients on both databases: a new job's numbers go in as given when each is there
// once, and a number given twice, or again when the job is extended, is still written once, in
// order and numbered without gaps.
import { describe, expect, it } from 'vitest';
import type { Db } from '../src/storage/db.js';
import { createOrExtendSendJob, createSendJob } from '../src/storage/send-job-create.js';
import type { NewSendJob } from '../src/storage/send-jobs.js';
import { DATABASE_KINDS, openTestDatabase } from './helpers/database.js';

const job = (key: string): NewSendJob => ({
  id: `job-${key}`,
  createdBy: 'owner-1',
  idempotencyKey: key,
  requestHash: `hash-${key}`,
  channel: 'sms',
  body: 'Blocks are open this afternoon.',
  template: null,
  createdTs: 1_790_000_000_000,
  sender: 'outbox',
});

async function recipientsOf(db: Db, jobId: string) {
  return db.query<{ seq: number; to_number: string }>(
    'SELECT seq, to_number FROM send_recipients WHERE job_id = $1 ORDER BY seq',
    [jobId],
  );
}

describe.each(DATABASE_KINDS)('send job recipients on %s', (kind) => {
  it('writes a new job once per number, a number given twice included', async () => {
    const { db, drop } = await openTestDatabase(kind);
    try {
      const created = await createSendJob(
        db,
        job('twice'),
        { to: ['+15550000001', '+15550000002', '+15550000001'] },
        () => ({ status: 202, body: {} as never }),
      );
      expect(created.created).toBe(true);
      expect(await recipientsOf(db, 'job-twice')).toEqual([
        { seq: 1, to_number: '+15550000001' },
        { seq: 2, to_number: '+15550000002' },
      ]);
    } finally {
      await drop();
    }
  });

  it('extends a job with only the numbers it does not have, after its last', async () => {
    const { db, drop } = await openTestDatabase(kind);
    try {
      const send = (to: string[]) =>
        createOrExtendSendJob(db, { ...job('extend'), content: {} }, { to }, null, (added) => ({
          added: added.length,
        }));
      const first = await send(['+15550000001', '+15550000002', '+15550000003']);
      expect(first).toMatchObject({ kind: 'added', created: true });
      const again = await send(['+15550000002', '+15550000004']);
      expect(again).toMatchObject({ kind: 'added', created: false });
      expect(again.kind === 'added' && again.added.map((r) => r.number)).toEqual(['+15550000004']);
      const rows = await recipientsOf(db, 'job-extend');
      expect(rows.map((r) => r.to_number)).toEqual([
        '+15550000001',
        '+15550000002',
        '+15550000003',
        '+15550000004',
      ]);
      // Numbered on from the last, without a gap where a number the job had was left out.
      expect(rows.map((r) => r.seq)).toEqual([1, 2, 3, 4]);
      const twice = await send(['+15550000005', '+15550000001', '+15550000005', '+15550000006']);
      expect(twice.kind === 'added' && twice.added).toEqual([
        { seq: 5, number: '+15550000005', status: 'queued' },
        { seq: 6, number: '+15550000006', status: 'queued' },
      ]);
    } finally {
      await drop();
    }
  });

  it('gives concurrent sends under one key each number once, numbered without gaps', async () => {
    const { db, drop } = await openTestDatabase(kind);
    try {
      const shared = ['+15550000001', '+15550000002', '+15550000003'];
      const results = await Promise.all(
        Array.from({ length: 6 }, (_, i) =>
          createOrExtendSendJob(
            db,
            { ...job('race'), content: {} },
            { to: [...shared, `+1555000010${i}`] },
            null,
            (added) => ({ added: added.length }),
          ),
        ),
      );
      expect(results.filter((r) => r.kind === 'added' && r.created)).toHaveLength(1);
      const rows = await recipientsOf(db, 'job-race');
      expect(rows).toHaveLength(shared.length + 6);
      expect(new Set(rows.map((r) => r.to_number)).size).toBe(rows.length);
      expect(rows.map((r) => r.seq)).toEqual(rows.map((_, i) => i + 1));
    } finally {
      await drop();
    }
  });
});
