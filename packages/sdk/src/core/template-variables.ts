// A WhatsApp template's `{{key}}` placeholders filled for one recipient: each variable is bound to
// a recipient field or to a value given with the send, and dates read as the template's language.

import { formatPhone } from './phone.js';
import type { TemplateComponent, TemplateVariable } from './schemas/messages.js';

/** What a recipient brings to a template; any field may be unknown (an unregistered invitee). */
export interface TemplateRecipient {
  phoneNumber: string;
  name?: string | null;
  expirationTs?: number | null;
  referralCode?: string | null;
}

export interface BoundTemplate {
  /** By key, as the provider's `ContentVariables` takes them. */
  variables: Record<string, string>;
  /** HEADER then BODY with every placeholder filled: what the recipient reads. */
  text: string;
}

const PLACEHOLDER = /\{\{\s*([A-Za-z0-9_]{1,40})\s*\}\}/g;

/** Every key a template's text uses, in order of first use. */
export function placeholderKeys(components: readonly TemplateComponent[]): string[] {
  const keys = new Set<string>();
  for (const c of components) for (const m of c.text.matchAll(PLACEHOLDER)) keys.add(m[1]!);
  return [...keys];
}

/**
 * The placeholders nothing fills: not declared as a variable, or bound to `value` with no value
 * given. A send with any of these is refused before anything is queued.
 */
export function unboundVariables(
  components: readonly TemplateComponent[],
  variables: readonly TemplateVariable[],
  values: Readonly<Record<string, string>>,
): string[] {
  const declared = new Map(variables.map((v) => [v.key, v]));
  const keys = new Set([...placeholderKeys(components), ...declared.keys()]);
  return [...keys].filter((key) => {
    const variable = declared.get(key);
    if (!variable) return true;
    return variable.source === 'value' && !(own(values, key) ?? '').trim();
  });
}

/** `record[key]` when the record itself holds it: never a method inherited from Object. */
function own(record: Readonly<Record<string, string>>, key: string): string | undefined {
  return Object.hasOwn(record, key) ? record[key] : undefined;
}

/** The HEADER then BODY texts, placeholders replaced from `variables`. */
export function renderTemplateText(
  components: readonly TemplateComponent[],
  variables: Readonly<Record<string, string>> = {},
): string {
  const texts = (type: TemplateComponent['type']) =>
    components
      .filter((c) => c.type === type)
      .map((c) =>
        c.text.replace(PLACEHOLDER, (whole, key: string) => own(variables, key) ?? whole).trim(),
      );
  return [...texts('HEADER'), ...texts('BODY')].filter((t) => t.length > 0).join('\n\n');
}

/** Fills every variable for one recipient; call after `unboundVariables` found none. */
export function bindTemplate(
  template: {
    language: string;
    components: readonly TemplateComponent[];
    variables?: readonly TemplateVariable[] | undefined;
  },
  recipient: TemplateRecipient,
  values: Readonly<Record<string, string>>,
  timeZone: string,
): BoundTemplate {
  // No prototype: a variable named like an Object method (`{{valueOf}}`, `{{__proto__}}`) is data.
  const variables: Record<string, string> = Object.create(null);
  for (const v of template.variables ?? []) {
    variables[v.key] = fieldValue(v, recipient, values, template.language, timeZone);
  }
  return { variables, text: renderTemplateText(template.components, variables) };
}

function fieldValue(
  variable: TemplateVariable,
  recipient: TemplateRecipient,
  values: Readonly<Record<string, string>>,
  language: string,
  timeZone: string,
): string {
  switch (variable.source) {
    case 'value':
      return own(values, variable.key) ?? '';
    case 'name':
      return recipient.name?.trim() || fallback(language);
    case 'firstName':
      return recipient.name?.trim().split(/\s+/)[0] || fallback(language);
    case 'expirationDate':
      return recipient.expirationTs == null
        ? '-'
        : formatTemplateDate(recipient.expirationTs, language, timeZone);
    case 'referralCode':
      return recipient.referralCode ?? '-';
    case 'invitePhone':
      return formatPhone(recipient.phoneNumber) || recipient.phoneNumber;
  }
}

/** A greeting-safe stand-in for an unknown name, in the template's language. */
function fallback(language: string): string {
  return language.toLowerCase().startsWith('es') ? 'amigo' : 'there';
}

/** `December 1, 2026` or `1 de diciembre de 2026`: the template language's long date. */
function formatTemplateDate(ts: number, language: string, timeZone: string): string {
  return new Intl.DateTimeFormat(language.replace('_', '-'), {
    dateStyle: 'long',
    timeZone,
  }).format(ts);
}

/** `es` and `es_MX` name one language: the primary subtag, lower case. */
function primaryLanguage(language: string): string {
  return language.split(/[_-]/)[0]!.toLowerCase();
}

/**
 * The best of `available` for a wanted language: the exact tag (ignoring `_`/`-` and case),
 * else one with the same primary language, else null.
 */
export function pickLanguage(wanted: string, available: readonly string[]): string | null {
  const norm = (l: string) => l.replace('-', '_').toLowerCase();
  return (
    available.find((l) => norm(l) === norm(wanted)) ??
    available.find((l) => primaryLanguage(l) === primaryLanguage(wanted)) ??
    null
  );
}
