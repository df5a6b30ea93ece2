// Each driver's block filters; saving them also sets `users.setup_complete`.
import {
  type DriverFilters,
  type SavedDriverFilters,
  storedDriverFiltersSchema,
} from '@blockcatch/sdk';
import type { Db, Queryable } from './db.js';

export async function findDriverFilters(
  db: Queryable,
  userId: string,
): Promise<SavedDriverFilters | null> {
  const rows = await db.query<{ filters: unknown }>(
    'SELECT filters FROM driver_settings WHERE user_id = $1',
    [userId],
  );
  return rows[0] === undefined ? null : readStoredFilters(rows[0].filters);
}

/**
 * A stored filters row as today's filters: fields added since it was saved take their defaults
 * and keys no longer known are dropped. A row that is not filters at all reads as none saved.
 */
export function readStoredFilters(stored: unknown): SavedDriverFilters | null {
  const parsed = storedDriverFiltersSchema.safeParse(stored);
  return parsed.success ? parsed.data : null;
}

/** Setup is complete once the saved filters name a warehouse and hold at least one window. */
function isSetupComplete(filters: DriverFilters): boolean {
  return (
    filters.warehouses.length > 0 &&
    Object.values(filters.weeklySchedule).some((windows) => windows.length > 0)
  );
}

export async function saveDriverFilters(
  db: Db,
  userId: string,
  filters: DriverFilters,
  now = Date.now(),
): Promise<{ setupComplete: boolean }> {
  const setupComplete = isSetupComplete(filters);
  await db.transaction(async (tx) => {
    await tx.query(
      `INSERT INTO driver_settings (user_id, filters, updated_ts) VALUES ($1, $2, $3)
       ON CONFLICT (user_id) DO UPDATE SET filters = $2, updated_ts = $3`,
      [userId, JSON.stringify(filters), now],
    );
    await tx.query('UPDATE users SET setup_complete = $2 WHERE id = $1', [userId, setupComplete]);
  });
  return { setupComplete };
}

export async function setDriverStatus(
  db: Queryable,
  userId: string,
  status: 'start' | 'stop',
): Promise<void> {
  await db.query('UPDATE users SET status = $2 WHERE id = $1', [userId, status]);
}
