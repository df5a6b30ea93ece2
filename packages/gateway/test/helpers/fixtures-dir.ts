// Writes a small generated data set in the layout of fixtures/data, for seeding tests.
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Dataset, generateDataset } from '../../../../fixtures/generate-data.js';

export async function writeFixturesDir(
  users = 200,
  seed = 3,
): Promise<{ dir: string; data: Dataset }> {
  const dir = await mkdtemp(join(tmpdir(), 'blockcatch-fixtures-'));
  const data = generateDataset({ users, seed });
  const files: Record<string, unknown> = {
    'flex-users.json': data.flexUsers,
    'spark-users.json': data.sparkUsers,
    'invitations.json': data.invitations,
    'referrals.json': data.referrals,
    'templates.json': data.templates,
    'staff.json': data.staff,
  };
  for (const [name, value] of Object.entries(files)) {
    await writeFile(join(dir, name), JSON.stringify(value));
  }
  return { dir, data };
}
