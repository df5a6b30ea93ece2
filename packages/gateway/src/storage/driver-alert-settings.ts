// Which alerts a driver gets and by which channel. No row means the defaults: every alert on, SMS.
import { type AlertSettings, alertSettingsSchema, DEFAULT_ALERT_SETTINGS } from '@blockcatch/sdk';
import type { Queryable } from './db.js';

export async function findAlertSettings(db: Queryable, userId: string): Promise<AlertSettings> {
  const rows = await db.query<{ settings: unknown }>(
    'SELECT settings FROM driver_alert_settings WHERE user_id = $1',
    [userId],
  );
  // A stored row that no longer parses (an alert added since) falls back to the defaults merged in.
  const stored = rows[0]?.settings as Partial<AlertSettings> | undefined;
  if (!stored) return DEFAULT_ALERT_SETTINGS;
  const merged = {
    channel: stored.channel ?? DEFAULT_ALERT_SETTINGS.channel,
    enabled: { ...DEFAULT_ALERT_SETTINGS.enabled, ...stored.enabled },
  };
  const parsed = alertSettingsSchema.safeParse(merged);
  return parsed.success ? parsed.data : DEFAULT_ALERT_SETTINGS;
}

export async function saveAlertSettings(
  db: Queryable,
  userId: string,
  settings: AlertSettings,
  now = Date.now(),
): Promise<void> {
  await db.query(
    `INSERT INTO driver_alert_settings (user_id, settings, updated_ts) VALUES ($1, $2::jsonb, $3)
     ON CONFLICT (user_id) DO UPDATE SET settings = $2::jsonb, updated_ts = $3`,
    [userId, JSON.stringify(settings), now],
  );
}
