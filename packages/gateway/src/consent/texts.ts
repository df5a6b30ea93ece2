// The words a driver agrees to for marketing texts, as the sign-up box and the settings switch show
// them (locales auth.register.marketingConsent and flex.marketing.switch, version
// MARKETING_CONSENT_VERSION): a consent record keeps the words themselves, not a key to them.
import type { ConsentMethod } from '@blockcatch/sdk';
import en from '../../../../locales/en.json' with { type: 'json' };
import es from '../../../../locales/es.json' with { type: 'json' };

const CATALOGUES = { en, es } as const;

export type ConsentLanguage = keyof typeof CATALOGUES;

/** The words shown by `method`'s box or switch in `language`. */
export function consentWords(
  method: Exclude<ConsentMethod, 'start-reply'>,
  language: ConsentLanguage,
): string {
  const catalogue = CATALOGUES[language];
  return method === 'sign-up'
    ? catalogue.auth.register.marketingConsent
    : catalogue.flex.marketing.switch;
}
