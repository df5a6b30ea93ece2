// The English and Spanish catalogues in locales/: same keys, same placeholders, complete plural
// forms, and the fixed English texts (docs/product.md, 'Texts') word for word.
import { readFileSync } from 'node:fs';
import i18next from 'i18next';
import { describe, expect, it } from 'vitest';

type Catalogue = { [key: string]: string | Catalogue };

function load(language: string): Catalogue {
  return JSON.parse(readFileSync(new URL(`../locales/${language}.json`, import.meta.url), 'utf8'));
}

const en = load('en');
const es = load('es');

/** `{ a: { b: 'x' } }` → `a.b → 'x'`; a non-string leaf is kept so a test can name it. */
function flatten(catalogue: Catalogue, prefix = ''): Map<string, unknown> {
  const entries = new Map<string, unknown>();
  for (const [key, value] of Object.entries(catalogue)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
      for (const [leafKey, leaf] of flatten(value, path)) entries.set(leafKey, leaf);
    } else {
      entries.set(path, value);
    }
  }
  return entries;
}

const flat = { en: flatten(en), es: flatten(es) };

function placeholders(text: unknown): string {
  return [...String(text).matchAll(/\{\{\s*([\w.]+)\s*\}\}/g)]
    .map((m) => m[1] ?? '')
    .sort()
    .join(', ');
}

const PLURAL_SUFFIX = /_(zero|one|two|few|many|other)$/;

/** The fixed English texts (the screens', the errors', the limits' and the CLI's), each the whole of a value. */
const QUOTED = [
  'page not found',
  'an error has occurred',
  'An error has occurred while loading the page.',
  'Go back',
  'Are you sure you want to send this message to {{count}} users?',
  'Sending message...',
  'Message sent successfully to {{count}} users.',
  'An error has occurred.',
  'There was an error fetching the data.',
  'Send SMS to unpaid invitations',
  'Search user...',
  'Registered?',
  'Proxy installed',
  'Setup complete',
  'Limit characters',
  'Good standing',
  'Account connected',
  'Filters complete',
  'Expiration date',
  'Referral',
  'Region',
  'Status',
  'ON',
  'OFF',
  'None',
  'Unregistered',
  'Dashboard',
  'Users',
  'Billing',
  'Invitations',
  'Home',
  'Sign out',
  'Cancel',
  'Send',
  'Review',
  'Clear',
  'SMS',
  'WhatsApp',
  'Flex',
  'Spark',
  'Request failed with status code {{status}}',
  'User is not authenticated',
  'Cannot retrieve a new session. Please authenticate.',
  'Local storage is missing an ID Token, Please authenticate',
  'New password is required.',
  'PASSWORD parameter is required',
  'Page not found',
  "Couldn't load user",
  "Couldn't load offers",
  "Couldn't load calendar",
  "Couldn't load invitations",
  "Couldn't configure schedule",
  "Couldn't create account",
  "Couldn't start payment process",
  "Couldn't confirm account",
  "Couldn't sign in",
  "You must turn on the system to use I've arrived",
  'Error sending confirmation code',
  'You must confirm your account to continue',
  'Phone number or password incorrect',
  "Passwords don't match",
  'An account with this phone number already exists',
  'You must add at least one warehouse',
  'Payment failed',
  "We're processing your payment",
  '1 week service',
  'Min amount per hour',
  'Min block payment',
  'Time buffer in minutes',
  'Weekly schedule',
  'Start time',
  'End time',
  'Won',
  'Disliked',
  'Gone',
  'Encoding {{encoding}}, {{segments}} segment(s), {{remaining}} characters remaining',
];

/** Facts the product states in prose: each must appear inside some English value. */
const STATED = [
  '7 am to 10 pm EST',
  'limited number of users',
  '1-week units',
  'at least 8 characters',
  'Passwords must match',
  'confirmation code is required',
  'phone number is required to send an invitation',
  'required fields',
  'agree to the Terms and Conditions',
  "after your friend's first payment",
  'Your service has expired',
  'Your service expires today',
  'Searching for blocks',
  'Not searching for blocks',
  'System on',
  'System off',
  'Days of the week',
  'A real send needs --yes',
  'Dry run',
];

describe('locales', () => {
  it('have the same keys in English and Spanish', () => {
    const missingInEs = [...flat.en.keys()].filter((k) => !flat.es.has(k));
    const extraInEs = [...flat.es.keys()].filter((k) => !flat.en.has(k));
    expect({ missingInEs, extraInEs }).toEqual({ missingInEs: [], extraInEs: [] });
  });

  it('hold a non-empty string in every key', () => {
    const bad = Object.entries(flat).flatMap(([language, entries]) =>
      [...entries]
        .filter(([, value]) => typeof value !== 'string' || value.trim() === '')
        .map(([key]) => `${language}: ${key}`),
    );
    expect(bad).toEqual([]);
  });

  it('use the same interpolation variables in both languages', () => {
    const mismatched = [...flat.en]
      .filter(([key, text]) => placeholders(text) !== placeholders(flat.es.get(key)))
      .map(
        ([key, text]) =>
          `${key}: en {${placeholders(text)}}, es {${placeholders(flat.es.get(key))}}`,
      );
    expect(mismatched).toEqual([]);
  });

  it("give every plural key each form its language's plural rules ask for", () => {
    const missing: string[] = [];
    for (const [language, entries] of Object.entries(flat)) {
      const categories = new Intl.PluralRules(language).resolvedOptions().pluralCategories;
      const bases = new Set(
        [...entries.keys()]
          .filter((key) => PLURAL_SUFFIX.test(key))
          .map((key) => key.replace(PLURAL_SUFFIX, '')),
      );
      for (const base of bases) {
        for (const category of categories) {
          if (!entries.has(`${base}_${category}`)) missing.push(`${language}: ${base}_${category}`);
        }
      }
    }
    expect(missing).toEqual([]);
  });

  it('quote the fixed English texts word for word', () => {
    const values = new Set(flat.en.values());
    expect(QUOTED.filter((text) => !values.has(text))).toEqual([]);
  });

  it('state the product facts in English', () => {
    const all = [...flat.en.values()].join('\n').toLowerCase();
    expect(STATED.filter((fact) => !all.includes(fact.toLowerCase()))).toEqual([]);
  });

  it("grant the free week after the friend's first payment, in both languages", () => {
    for (const key of ['flex.invite.description', 'faqs.freeWeek.answer']) {
      expect(flat.en.get(key)).toContain("after your friend's first payment");
      expect(flat.es.get(key)).toContain('después del primer pago de tu amigo');
    }
  });

  it('resolve plurals through i18next for one user, a few and a million', async () => {
    const i18n = i18next.createInstance();
    await i18n.init({
      lng: 'en',
      resources: { en: { translation: en }, es: { translation: es } },
      interpolation: { escapeValue: false },
    });
    const t = (lng: string, key: string, count: number) => i18n.t(key, { lng, count });
    expect(t('en', 'admin.sendSms.confirm', 1)).toBe(
      'Are you sure you want to send this message to 1 user?',
    );
    expect(t('en', 'admin.sendSms.confirm', 25)).toBe(
      'Are you sure you want to send this message to 25 users?',
    );
    expect(t('es', 'admin.sendSms.sent', 1)).toBe('Mensaje enviado con éxito a 1 usuario.');
    expect(t('es', 'admin.sendSms.sent', 25)).toBe('Mensaje enviado con éxito a 25 usuarios.');
    // Spanish says "un millón de usuarios": CLDR's "many" form, which i18next needs a key for.
    expect(t('es', 'admin.sendSms.sent', 1_000_000)).toBe(
      'Mensaje enviado con éxito a 1000000 de usuarios.',
    );
  });
});
