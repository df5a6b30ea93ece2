// The sandbox processor's hosted pages, served under /sandbox/… as if from another site: the
// checkout (card form, the bank's authentication step), the billing portal (card, invoices,
// cancel or resume) and receipts. Plain HTML forms, no script; the card number is read here, by
// the processor's page, checked, reduced to its test behaviour and last four digits, and dropped.
import type { FastifyInstance, FastifyReply } from 'fastify';
import { z } from 'zod';
import en from '../../../../locales/en.json' with { type: 'json' };
import es from '../../../../locales/es.json' with { type: 'json' };
import type { Db } from '../storage/db.js';
import {
  findSandboxInvoice,
  findSandboxPortalSession,
  type SandboxCheckout,
  sandboxInvoicesOf,
  sandboxSubscriptionsOf,
} from '../storage/sandbox-billing.js';
import { findSandboxCharge } from '../storage/sandbox-card-charges.js';
import { checkCard, type PayOutcome, type SandboxProcessor } from './sandbox-provider.js';

type Texts = typeof en.sandboxProcessor;
const TEXTS: Record<'en' | 'es', Texts> = { en: en.sandboxProcessor, es: es.sandboxProcessor };

const idParams = z.strictObject({ id: z.string().regex(/^[a-z]+_sandbox_[0-9a-f]{24}$/) });
const cardForm = z.object({
  number: z.string().max(40).default(''),
  expiry: z.string().max(10).default(''),
  cvc: z.string().max(10).default(''),
});
const decisionForm = z.object({ decision: z.enum(['approve', 'deny']) });
const cancelForm = z.object({ cancel: z.enum(['1', '0']) });

const html = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const fill = (text: string, values: Record<string, string>) =>
  text.replace(/\{\{(\w+)\}\}/g, (_m, key: string) => values[key] ?? '');
const money = (cents: number, locale: 'en' | 'es') =>
  new Intl.NumberFormat(locale === 'es' ? 'es-US' : 'en-US', {
    style: 'currency',
    currency: 'USD',
  }).format(cents / 100);
const day = (ts: number, locale: 'en' | 'es') =>
  new Intl.DateTimeFormat(locale === 'es' ? 'es-US' : 'en-US', {
    dateStyle: 'medium',
    timeZone: 'America/New_York',
  }).format(ts);

const STYLE = `
body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",sans-serif;background:#f6f9fc;color:#1a1f36}
header{background:#0a2540;color:#fff;padding:14px 24px;display:flex;align-items:center;gap:12px}
header strong{font-size:18px;letter-spacing:.3px}
.badge{background:#ffb020;color:#0a2540;border-radius:4px;padding:1px 8px;font-size:12px;font-weight:700;text-transform:uppercase}
main{max-width:440px;margin:32px auto;padding:0 16px}
.panel{background:#fff;border-radius:10px;box-shadow:0 2px 12px rgba(10,37,64,.12);padding:24px;margin-bottom:16px}
h1{font-size:20px;margin:0 0 4px}
.price{font-size:28px;font-weight:700;margin:8px 0}
label{display:block;font-weight:600;font-size:14px;margin:12px 0 4px}
input{width:100%;box-sizing:border-box;font:inherit;padding:10px 12px;border:1px solid #c1c9d2;border-radius:6px}
.row{display:flex;gap:12px}.row>div{flex:1}
button{width:100%;margin-top:16px;font:inherit;font-weight:600;color:#fff;background:#635bff;border:0;border-radius:6px;padding:12px;cursor:pointer}
button.secondary{background:#fff;color:#0a2540;border:1px solid #c1c9d2}
.error{color:#c0123c;background:#fff0f3;border-radius:6px;padding:10px 12px;margin-top:12px}
.ok{color:#0b6b3a;background:#e8f7ef;border-radius:6px;padding:10px 12px;margin-top:12px}
.muted{color:#697386;font-size:13px}
a{color:#635bff}
table{width:100%;border-collapse:collapse}td,th{text-align:left;padding:6px 4px;border-bottom:1px solid #eef1f5;font-size:14px}
`;

function page(
  reply: FastifyReply,
  locale: 'en' | 'es',
  title: string,
  body: string,
  options: { status?: number; formTargets?: string[] } = {},
) {
  const t = TEXTS[locale];
  // Its own policy: no script at all, and forms may go only here and back to the merchant.
  const targets = ["'self'", ...(options.formTargets ?? [])].join(' ');
  return reply
    .status(options.status ?? 200)
    .header('content-type', 'text/html; charset=utf-8')
    .header('cache-control', 'no-store')
    .header(
      'content-security-policy',
      `default-src 'none'; style-src 'unsafe-inline'; form-action ${targets}; frame-ancestors 'none'; base-uri 'none'`,
    )
    .send(`<!doctype html><html lang="${locale}"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1"><title>${html(title)} · ${html(t.brand)}</title>
<style>${STYLE}</style></head><body><header><strong>${html(t.brand)}</strong><span class="badge">${html(t.testMode)}</span></header>
<main>${body}</main></body></html>`);
}

/** Origins a page may send the driver back to, for its form-action policy. */
function originsOf(...urls: string[]): string[] {
  const out: string[] = [];
  for (const url of urls) {
    try {
      out.push(new URL(url).origin);
    } catch {
      // Root-relative: the same origin, already allowed.
    }
  }
  return out;
}

function checkoutBody(c: SandboxCheckout, t: Texts, error: string | null): string {
  const amount = money(c.amount_cents, c.locale);
  const price =
    c.mode === 'subscription' ? fill(t.subscription, { amount }) : fill(t.oneOff, { amount });
  return `<section class="panel"><p class="muted">${html(t.payTo)}</p><h1>${html(c.description)}</h1>
<p class="price">${html(price)}</p></section>
<form class="panel" method="post" action="/sandbox/checkout/${c.id}" novalidate>
<h2 style="font-size:16px;margin:0">${html(t.cardInformation)}</h2>
<label for="number">${html(t.cardNumber)}</label><input id="number" name="number" inputmode="numeric" autocomplete="cc-number" placeholder="1234 1234 1234 1234">
<div class="row"><div><label for="expiry">${html(t.expiry)}</label><input id="expiry" name="expiry" autocomplete="cc-exp" placeholder="MM/YY"></div>
<div><label for="cvc">${html(t.cvc)}</label><input id="cvc" name="cvc" inputmode="numeric" autocomplete="cc-csc" placeholder="123"></div></div>
${error ? `<p class="error" role="alert">${html(error)}</p>` : ''}
<button type="submit">${html(c.mode === 'subscription' ? t.subscribe : fill(t.pay, { amount }))}</button>
<p class="muted">🔒 ${html(t.secured)}</p></form>
<p class="muted">${html(t.testCards)}</p>
<p><a href="${html(c.cancel_url)}">← ${html(t.back)}</a></p>`;
}

function declineText(t: Texts, code: string): string {
  const words = t.declined as Record<string, string>;
  return words[code] ?? t.declined.card_declined;
}

export function registerSandboxPages(
  app: FastifyInstance,
  deps: { db: Db; sandbox: SandboxProcessor; now: () => number },
): void {
  const { db, sandbox, now } = deps;

  app.register(async (scope) => {
    scope.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: 4096 },
      (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(body as string))),
    );
    const open = { config: { auth: 'public' as const } };

    const answer = async (reply: FastifyReply, c: SandboxCheckout, outcome: PayOutcome) => {
      const t = TEXTS[c.locale];
      if (outcome.kind === 'redirect') return reply.redirect(outcome.url, 303);
      if (outcome.kind === 'closed')
        return page(reply, c.locale, t.closed, `<p class="panel">${html(t.closed)}</p>`, {
          status: 409,
        });
      if (outcome.kind === 'authenticate') {
        const amount = money(c.amount_cents, c.locale);
        return page(
          reply,
          c.locale,
          t.authTitle,
          `<form class="panel" method="post" action="/sandbox/checkout/${c.id}/authenticate">
<h1>${html(t.authTitle)}</h1><p>${html(fill(t.authBody, { amount }))}</p>
<button type="submit" name="decision" value="approve">${html(t.approve)}</button>
<button type="submit" name="decision" value="deny" class="secondary">${html(t.deny)}</button></form>`,
        );
      }
      return page(
        reply,
        c.locale,
        c.description,
        checkoutBody(c, t, declineText(t, outcome.code)),
        {
          status: 402,
          formTargets: originsOf(c.success_url),
        },
      );
    };

    scope.get('/sandbox/checkout/:id', open, async (request, reply) => {
      const { id } = idParams.parse(request.params);
      const c = await sandbox.checkout(id);
      if (!c) return reply.status(404).send({ code: 'not_found', message: 'No such checkout.' });
      const t = TEXTS[c.locale];
      if (c.status !== 'open') return answer(reply, c, { kind: 'closed' });
      return page(reply, c.locale, c.description, checkoutBody(c, t, null), {
        formTargets: originsOf(c.success_url),
      });
    });

    scope.post('/sandbox/checkout/:id', open, async (request, reply) => {
      const { id } = idParams.parse(request.params);
      const c = await sandbox.checkout(id);
      if (!c) return reply.status(404).send({ code: 'not_found', message: 'No such checkout.' });
      const t = TEXTS[c.locale];
      const form = cardForm.safeParse(request.body ?? {});
      const check = form.success
        ? checkCard(form.data, now())
        : ({ ok: false, field: 'number' } as const);
      if (!check.ok) {
        return page(reply, c.locale, c.description, checkoutBody(c, t, t.invalid[check.field]), {
          status: 400,
          formTargets: originsOf(c.success_url),
        });
      }
      return answer(reply, c, await sandbox.pay(id, { kind: check.kind, last4: check.last4 }));
    });

    scope.post('/sandbox/checkout/:id/authenticate', open, async (request, reply) => {
      const { id } = idParams.parse(request.params);
      const c = await sandbox.checkout(id);
      if (!c) return reply.status(404).send({ code: 'not_found', message: 'No such checkout.' });
      const form = decisionForm.safeParse(request.body ?? {});
      if (!form.success)
        return reply
          .status(400)
          .send({ code: 'validation', message: 'decision: approve or deny.' });
      return answer(reply, c, await sandbox.authenticate(id, form.data.decision === 'approve'));
    });

    const portalPage = async (
      reply: FastifyReply,
      id: string,
      notice: { ok?: string; error?: string } = {},
    ) => {
      const session = await findSandboxPortalSession(db, id, now());
      if (!session) {
        return page(
          reply,
          'en',
          TEXTS.en.expired,
          `<p class="panel">${html(TEXTS.en.expired)}</p>`,
          { status: 404 },
        );
      }
      const locale = session.locale;
      const t = TEXTS[locale];
      const customer = await sandbox.customer(session.customer);
      const subscription = (await sandboxSubscriptionsOf(db, session.customer))[0] ?? null;
      const invoices = await sandboxInvoicesOf(db, session.customer);
      let status = '';
      if (subscription) {
        const date = day(subscription.current_period_end_ts, locale);
        status =
          subscription.status === 'canceled'
            ? t.canceled
            : subscription.status === 'past_due'
              ? t.pastDue
              : subscription.cancel_at_period_end
                ? fill(t.ends, { date })
                : fill(t.renews, { date });
      }
      const toggle =
        subscription && subscription.status !== 'canceled'
          ? `<form method="post" action="/sandbox/portal/${id}/cancel"><button type="submit" class="secondary" name="cancel" value="${subscription.cancel_at_period_end ? '0' : '1'}">${html(subscription.cancel_at_period_end ? t.resume : t.cancel)}</button></form>`
          : '';
      const rows = invoices
        .map(
          (i) =>
            `<tr><td>${html(day(i.created_ts, locale))}</td><td>${html(money(i.total_cents, locale))}</td><td>${html(i.status === 'paid' ? t.paid : t.open)}</td><td><a href="/sandbox/receipts/${i.id}?locale=${locale}">${html(t.receipt)}</a></td></tr>`,
        )
        .join('');
      return page(
        reply,
        locale,
        t.portalTitle,
        `<section class="panel"><h1>${html(t.portalTitle)}</h1>${status ? `<p${subscription?.status === 'past_due' ? ' class="error" role="alert"' : ''}>${html(status)}</p>` : ''}${toggle}</section>
<form class="panel" method="post" action="/sandbox/portal/${id}/card" novalidate><h2 style="font-size:16px;margin:0">${html(t.cardOnFile)}</h2>
<p>${customer?.card_last4 ? `•••• ${html(customer.card_last4)}` : html(t.noCard)}</p>
<label for="number">${html(t.cardNumber)}</label><input id="number" name="number" inputmode="numeric" autocomplete="cc-number">
<div class="row"><div><label for="expiry">${html(t.expiry)}</label><input id="expiry" name="expiry" placeholder="MM/YY"></div>
<div><label for="cvc">${html(t.cvc)}</label><input id="cvc" name="cvc" inputmode="numeric"></div></div>
${notice.error ? `<p class="error" role="alert">${html(notice.error)}</p>` : ''}${notice.ok ? `<p class="ok" role="status">${html(notice.ok)}</p>` : ''}
<button type="submit">${html(t.saveCard)}</button><p class="muted">🔒 ${html(t.secured)}</p></form>
<section class="panel"><h2 style="font-size:16px;margin:0">${html(t.invoices)}</h2>${rows ? `<table>${rows}</table>` : `<p>${html(t.noInvoices)}</p>`}</section>
<p><a href="${html(session.return_url)}">← ${html(t.back)}</a></p>`,
        { status: notice.error ? 400 : 200, formTargets: originsOf(session.return_url) },
      );
    };

    scope.get('/sandbox/portal/:id', open, async (request, reply) => {
      const { id } = idParams.parse(request.params);
      return portalPage(reply, id);
    });

    scope.post('/sandbox/portal/:id/card', open, async (request, reply) => {
      const { id } = idParams.parse(request.params);
      const session = await findSandboxPortalSession(db, id, now());
      if (!session) return portalPage(reply, id);
      const t = TEXTS[session.locale];
      const form = cardForm.safeParse(request.body ?? {});
      const check = form.success
        ? checkCard(form.data, now())
        : ({ ok: false, field: 'number' } as const);
      if (!check.ok) return portalPage(reply, id, { error: t.invalid[check.field] });
      // A card the bank declines outright is not saved, as Stripe's setup refuses it.
      if (check.kind === 'declined' || check.kind === 'insufficient_funds') {
        return portalPage(reply, id, {
          error: declineText(t, check.kind === 'declined' ? 'card_declined' : 'insufficient_funds'),
        });
      }
      await sandbox.updateCard(session.customer, { kind: check.kind, last4: check.last4 });
      return portalPage(reply, id, { ok: t.cardSaved });
    });

    scope.post('/sandbox/portal/:id/cancel', open, async (request, reply) => {
      const { id } = idParams.parse(request.params);
      const session = await findSandboxPortalSession(db, id, now());
      const form = cancelForm.safeParse(request.body ?? {});
      if (session && form.success)
        await sandbox.setCancel(session.customer, form.data.cancel === '1');
      return reply.redirect(`/sandbox/portal/${id}`, 303);
    });

    scope.get('/sandbox/receipts/:id', open, async (request, reply) => {
      const { id } = idParams.parse(request.params);
      const locale = (request.query as { locale?: string }).locale === 'es' ? 'es' : 'en';
      const t = TEXTS[locale];
      const invoice = await findSandboxInvoice(db, id);
      const charge = invoice
        ? await findSandboxCharge(db, invoice.payment_intent)
        : await findSandboxCharge(db, id);
      if (!invoice && !charge)
        return reply.status(404).send({ code: 'not_found', message: 'No such receipt.' });
      const amount = invoice ? invoice.amount_paid_cents : (charge?.amount_cents ?? 0);
      const when = invoice?.paid_ts ?? invoice?.created_ts ?? charge?.created_ts ?? 0;
      const last4 = invoice?.card_last4 ?? charge?.card_last4 ?? null;
      return page(
        reply,
        locale,
        t.receiptTitle,
        `<section class="panel"><h1>${html(t.receiptTitle)}</h1><p class="muted">${html(id)}</p><table>
<tr><th>${html(t.amountPaid)}</th><td>${html(money(amount, locale))}</td></tr>
<tr><th>${html(t.date)}</th><td>${html(day(when, locale))}</td></tr>
${last4 ? `<tr><th>${html(t.paymentMethod)}</th><td>•••• ${html(last4)}</td></tr>` : ''}
${charge && charge.refunded_cents > 0 ? `<tr><th>${html(t.refunded)}</th><td>${html(money(charge.refunded_cents, locale))}</td></tr>` : ''}
</table></section>`,
      );
    });
  });
}
