// Weekly payments under /api/flex/v1: the price, a hosted checkout (the card is typed on the
// processor's page, never sent here), my billing (subscription, invoices, credit), cancel or
// resume at the end of the paid week, the processor's billing portal, and my payments.
import {
  type BillingSummary,
  billingSummarySchema,
  type Checkout,
  type CheckoutRequest,
  checkoutResponseSchema,
  type Payment,
  type PriceResponse,
  paymentItemResponseSchema,
  paymentsResponseSchema,
  portalResponseSchema,
  priceResponseSchema,
} from '../../core/schemas/index.js';
import type { Requester, RequestOptions } from '../requester.js';

const BASE = '/api/flex/v1';

export interface CheckoutOptions extends RequestOptions {
  /**
   * One key per checkout the driver means to open, kept across retries: a repeat answers the same
   * checkout. Required, as by the gateway.
   */
  idempotencyKey: string;
}

export function paymentsResource(http: Requester) {
  return {
    async price(options?: RequestOptions): Promise<PriceResponse> {
      return http.get(`${BASE}/price`, priceResponseSchema, options);
    },
    /** Opens a hosted checkout; send the driver to `url`. */
    async checkout(body: CheckoutRequest, options: CheckoutOptions): Promise<Checkout> {
      return (await http.post(`${BASE}/checkout`, checkoutResponseSchema, body, options)).Item;
    },
    /** A checkout of mine: 'complete' once the processor's webhook settled it. */
    async getCheckout(id: string, options?: RequestOptions): Promise<Checkout> {
      return (
        await http.get(
          `${BASE}/checkout/${encodeURIComponent(id)}`,
          checkoutResponseSchema,
          options,
        )
      ).Item;
    },
    async billing(options?: RequestOptions): Promise<BillingSummary> {
      return http.get(`${BASE}/billing`, billingSummarySchema, options);
    },
    /** Cancel at the end of the paid week (true), or resume (false). */
    async setCancelAtPeriodEnd(
      cancelAtPeriodEnd: boolean,
      options?: RequestOptions,
    ): Promise<BillingSummary> {
      return http.post(
        `${BASE}/billing/subscription`,
        billingSummarySchema,
        { cancelAtPeriodEnd },
        options,
      );
    },
    /** The processor's billing portal (update the card, invoices): send the driver to `url`. */
    async portal(locale: 'en' | 'es' = 'en', options?: RequestOptions): Promise<string> {
      return (
        await http.post(
          `${BASE}/billing/portal?locale=${locale}`,
          portalResponseSchema,
          {},
          options,
        )
      ).url;
    },
    /** Mine, newest first. */
    async list(options?: RequestOptions): Promise<Payment[]> {
      return (await http.get(`${BASE}/payments`, paymentsResponseSchema, options)).Items;
    },
    async get(id: string, options?: RequestOptions): Promise<Payment> {
      return (
        await http.get(
          `${BASE}/payments/${encodeURIComponent(id)}`,
          paymentItemResponseSchema,
          options,
        )
      ).Item;
    },
  };
}
