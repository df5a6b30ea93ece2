// The alerts a driver gets by text (docs/product.md, "Alerts"): which ones are on and the channel
// they go by, as `GET` and `PUT /api/flex/v1/alerts` exchange them.
import { z } from 'zod';

/** One switch per alert, in the order the settings page lists them. */
export const ALERT_KINDS = [
  'blockWon',
  'account',
  'throttled',
  'expiring',
  'paymentFailed',
  'weeklyDigest',
] as const;
export const alertKindSchema = z.enum(ALERT_KINDS);
export type AlertKind = z.infer<typeof alertKindSchema>;

export const ALERT_CHANNELS = ['sms', 'whatsapp'] as const;

export const alertSettingsSchema = z.strictObject({
  /** SMS unless the driver chose WhatsApp. */
  channel: z.enum(ALERT_CHANNELS, { message: "expected 'sms' or 'whatsapp'" }),
  /** Each alert on (true) or off. */
  enabled: z.strictObject(
    Object.fromEntries(ALERT_KINDS.map((kind) => [kind, z.boolean()])) as Record<
      AlertKind,
      z.ZodBoolean
    >,
  ),
});
export type AlertSettings = z.infer<typeof alertSettingsSchema>;

/** Every alert on, by SMS: what a driver has until they change it. */
export const DEFAULT_ALERT_SETTINGS: AlertSettings = {
  channel: 'sms',
  enabled: Object.fromEntries(ALERT_KINDS.map((kind) => [kind, true])) as Record<
    AlertKind,
    boolean
  >,
};

export const alertSettingsResponseSchema = z.object({ Item: alertSettingsSchema });
