// Driving a hosted checkout the way a browser does: open it through the API, then post the card
// form on the sandbox processor's page (or the bank's approve/deny step) and follow its answer.
import { randomUUID } from 'node:crypto';
import type { Client } from './json-client.js';

export const CARDS = {
  succeeds: '4242 4242 4242 4242',
  declined: '4000 0000 0000 0002',
  insufficientFunds: '4000 0000 0000 9995',
  authenticate: '4000 0025 0000 3155',
  failsLater: '4000 0000 0000 0341',
} as const;

export interface PageAnswer {
  status: number;
  location: string | null;
  html: string;
}

export async function openCheckout(
  call: Client,
  body: { mode: 'subscription' | 'payment'; weeks?: number; locale?: 'en' | 'es' },
  key = randomUUID(),
) {
  return call('POST', '/api/flex/v1/checkout', body, { 'idempotency-key': key });
}

/** Posts a form as the page's own form would, without following a redirect. */
export async function postForm(
  base: string,
  path: string,
  fields: Record<string, string>,
): Promise<PageAnswer> {
  const response = await fetch(new URL(path, base), {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields).toString(),
  });
  return {
    status: response.status,
    location: response.headers.get('location'),
    html: await response.text(),
  };
}

/** Types a test card on the checkout page and submits it. */
export function payWithCard(base: string, checkoutUrl: string, number: string) {
  return postForm(base, new URL(checkoutUrl, base).pathname, {
    number,
    expiry: '12/40',
    cvc: '123',
  });
}

export function authenticate(base: string, checkoutUrl: string, decision: 'approve' | 'deny') {
  return postForm(base, `${new URL(checkoutUrl, base).pathname}/authenticate`, { decision });
}

/** Opens a checkout and pays it with `number`; answers the checkout and the page's answer. */
export async function checkoutAndPay(
  base: string,
  call: Client,
  body: { mode: 'subscription' | 'payment'; weeks?: number },
  number: string = CARDS.succeeds,
) {
  const opened = await openCheckout(call, body);
  if (opened.status !== 201)
    throw new Error(`checkout: ${opened.status} ${JSON.stringify(opened.body)}`);
  const page = await payWithCard(base, opened.body.Item.url, number);
  return { checkout: opened.body.Item as { id: string; url: string }, page };
}
