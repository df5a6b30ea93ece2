// Weekly payments under /api/flex/v1: the price, paying under an idempotency key, my payments, and
// the sandbox's stand-in for the card network settling a processing payment (admins only).
import {
  type ConfirmSandboxPaymentRequest,
  type CreatePaymentRequest,
  type Payment,
  type PaymentResponse,
  type PriceResponse,
  paymentItemResponseSchema,
  paymentResponseSchema,
  paymentsResponseSchema,
  priceResponseSchema,
} from '../../core/schemas/index.js';
import type { Requester, RequestOptions } from '../client.js';

const BASE = '/api/flex/v1';

export interface PaymentOptions extends RequestOptions {
  /**
   * One key per payment the driver means to make, kept across retries: the gateway charges a key
   * once and answers a repeat with that payment's current state. Required, as by the gateway.
   */
  idempotencyKey: string;
}

export function paymentsResource(http: Requester) {
  return {
    async price(options?: RequestOptions): Promise<PriceResponse> {
      return http.get(`${BASE}/price`, priceResponseSchema, options);
    },
    /** `status` is 'succeeded' (201) or 'processing' (202); a decline is an HttpError 402. */
    async create(body: CreatePaymentRequest, options: PaymentOptions): Promise<PaymentResponse> {
      return http.post(`${BASE}/payments`, paymentResponseSchema, body, options);
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
    /** Sandbox only, admins only: settles a processing payment. */
    async confirmSandbox(
      id: string,
      body: ConfirmSandboxPaymentRequest = {},
      options?: RequestOptions,
    ): Promise<Payment> {
      return (
        await http.post(
          `/api/sandbox/payments/${encodeURIComponent(id)}/confirm`,
          paymentItemResponseSchema,
          body,
          options,
        )
      ).Item;
    },
  };
}
