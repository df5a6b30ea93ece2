// GET and PUT /api/flex/v1/marketing-consent: whether the signed-in driver gets marketing texts,
// with the record of when and how they said so.
import {
  type MarketingConsent,
  type MarketingConsentChange,
  marketingConsentResponseSchema,
} from '../../core/schemas/index.js';
import type { Requester, RequestOptions } from '../requester.js';

const PATH = '/api/flex/v1/marketing-consent';

export function driverMarketingConsentResource(http: Requester) {
  return {
    async marketingConsent(options?: RequestOptions): Promise<MarketingConsent> {
      return (await http.get(PATH, marketingConsentResponseSchema, options)).Item;
    },
    /** The settings switch: records the answer with the switch's words in `language`. */
    async saveMarketingConsent(
      change: MarketingConsentChange,
      options?: RequestOptions,
    ): Promise<MarketingConsent> {
      return (await http.put(PATH, marketingConsentResponseSchema, change, options)).Item;
    },
  };
}
