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
      const response = await http.request({
        method: 'GET',
        path: `${BASE}/price`,
        schema: priceResponseSchema,
        options,
      });
      return response.data;
    },
    /** `status` is 'succeeded' (201) or 'processing' (202); a decline is an HttpError 402. */
    async create(body: CreatePaymentRequest, options: PaymentOptions): Promise<PaymentResponse> {
      const { idempotencyKey, ...requestOptions } = options;
      const response = await http.request({
        method: 'POST',
        path: `${BASE}/payments`,
        body,
        idempotencyKey,
        schema: paymentResponseSchema,
        options: requestOptions,
      });
      return response.data;
    },
    /** Mine, newest first. */
    async list(options?: RequestOptions): Promise<Payment[]> {
      const response = await http.request({
        method: 'GET',
        path: `${BASE}/payments`,
        schema: paymentsResponseSchema,
        options,
      });
      return response.data.Items;
    },
    async get(id: string, options?: RequestOptions): Promise<Payment> {
      const response = await http.request({
        method: 'GET',
        path: `${BASE}/payments/${encodeURIComponent(id)}`,
        schema: paymentItemResponseSchema,
        options,
      });
      return response.data.Item;
    },
    /** Sandbox only, admins only: settles a processing payment. */
    async confirmSandbox(
      id: string,
      body: ConfirmSandboxPaymentRequest = {},
      options?: RequestOptions,
    ): Promise<Payment> {
      const response = await http.request({
        method: 'POST',
        path: `/api/sandbox/payments/${encodeURIComponent(id)}/confirm`,
        body,
        schema: paymentItemResponseSchema,
        options,
      });
      return response.data.Item;
    },
  };
}
