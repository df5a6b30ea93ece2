// A send's tracked links on both databases: one code per recipient per address, a code already
// taken drawn again for just that row, and a job's links made again adding only those it lacks.
import { describe, expect, it } from 'vitest';
import type { Db } from '../src/storage/db.js';
import { createRecipientLinks } from '../src/storage/send-links.js';
import { DATABASE_KINDS, openTestDatabase } from './helpers/database.js';

const URLS = ['https://a.example/one', 'https://b.example/two'];

async function linksOf(db: Db, jobId: string) {
  return db.query<{ code: string; seq: number; url_index: number; url: string }>(
    'SELECT code, seq, url_index, url FROM send_links WHERE job_id = $1 ORDER BY seq, url_index',
    [jobId],
  );
}

describe.each(DATABASE_KINDS)('tracked link codes on %s', (kind) => {
  it('draws a taken code again for its row only, and adds only the links a job lacks', async () => {
    const { db, drop } = await openTestDatabase(kind);
    try {
      await createRecipientLinks(db, 'job-a', [1], URLS, () => ['TAKEN001', 'aaaaaaa2']);
      // The first draw gives job-b a code job-a holds: that row is drawn again, the others stay.
      const draws: number[] = [];
      const drawn = [['bbbbbbb1', 'TAKEN001', 'bbbbbbb3', 'bbbbbbb4'], ['ccccccc1']];
      await createRecipientLinks(db, 'job-b', [1, 2], URLS, (n) => {
        draws.push(n);
        return drawn[draws.length - 1]!;
      });
      expect(draws).toEqual([4, 1]);
      expect(await linksOf(db, 'job-b')).toEqual([
        { code: 'bbbbbbb1', seq: 1, url_index: 0, url: URLS[0] },
        { code: 'ccccccc1', seq: 1, url_index: 1, url: URLS[1] },
        { code: 'bbbbbbb3', seq: 2, url_index: 0, url: URLS[0] },
        { code: 'bbbbbbb4', seq: 2, url_index: 1, url: URLS[1] },
      ]);

      // Made again with one more recipient: the codes given stay, the new recipient gets its own.
      await createRecipientLinks(db, 'job-b', [1, 2, 3], URLS, (n) =>
        Array.from({ length: n }, (_, i) => `ddddddd${i}`),
      );
      const links = await linksOf(db, 'job-b');
      expect(links.map((l) => l.code)).toEqual([
        'bbbbbbb1',
        'ccccccc1',
        'bbbbbbb3',
        'bbbbbbb4',
        'ddddddd4',
        'ddddddd5',
      ]);
    } finally {
      await drop();
    }
  });
});
