// Consent to marketing texts: a driver's answer, when and how it was given (the sign-up box with the
// version of its text, the settings switch, a START reply) and the words agreed to, as
// `GET` and `PUT /api/flex/v1/marketing-consent` exchange them.
import { z } from 'zod';

/**
 * The version of the consent texts (the sign-up box and the settings switch, locales
 * `auth.register.marketingConsent` and `flex.marketing.switch`); a new wording gets a new version,
 * so every record says which words were shown.
 */
export const MARKETING_CONSENT_VERSION = '2026-11';

/** How a consent (or its withdrawal) was recorded. */
const CONSENT_METHODS = ['sign-up', 'settings', 'start-reply'] as const;
export const consentMethodSchema = z.enum(CONSENT_METHODS);
export type ConsentMethod = z.infer<typeof consentMethodSchema>;

export const CONSENT_LANGUAGES = ['en', 'es'] as const;

/**
 * The sign-up attribute carrying the marketing box when it was ticked: `version:language`, e.g.
 * `2026-11:es`. Absent when the box was left empty.
 */
export const MARKETING_CONSENT_ATTRIBUTE = 'custom:marketing_consent';

export function marketingConsentAttribute(language: (typeof CONSENT_LANGUAGES)[number]): string {
  return `${MARKETING_CONSENT_VERSION}:${language}`;
}

/** The attribute's version and language, or null when it is not one this SDK knows. */
export function parseMarketingConsentAttribute(
  value: string,
): { version: string; language: (typeof CONSENT_LANGUAGES)[number] } | null {
  if (value.length > 20) return null;
  const [version, language, ...rest] = value.split(':');
  if (rest.length > 0 || version !== MARKETING_CONSENT_VERSION) return null;
  if (language !== 'en' && language !== 'es') return null;
  return { version, language };
}

export const marketingConsentSchema = z.object({
  /** True while marketing texts may be sent to this driver. */
  consented: z.boolean(),
  /** When the answer was recorded (epoch ms); null when the driver never answered. */
  recordedAt: z.number().nullable(),
  method: consentMethodSchema.nullable(),
  /** The version of the text shown (sign-up box, settings switch); null for a START reply. */
  textVersion: z.string().nullable(),
  /** The words agreed to (or the reply sent). */
  words: z.string().nullable(),
});
export type MarketingConsent = z.infer<typeof marketingConsentSchema>;

export const marketingConsentResponseSchema = z.object({ Item: marketingConsentSchema });

/** The settings switch: on or off, and the language its words were shown in. */
export const marketingConsentChangeSchema = z.strictObject({
  consented: z.boolean(),
  language: z.enum(CONSENT_LANGUAGES, { message: "expected 'en' or 'es'" }),
});
export type MarketingConsentChange = z.infer<typeof marketingConsentChangeSchema>;
