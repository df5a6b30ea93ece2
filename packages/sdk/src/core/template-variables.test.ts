import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { TemplateComponent, TemplateVariable } from './schemas/messages.js';
import {
  bindTemplate,
  placeholderKeys,
  renderTemplateText,
  unboundVariables,
} from './template-variables.js';

const key = fc.stringMatching(/^[A-Za-z0-9_]{1,8}$/);
// Plain words; a value may itself look like a placeholder, which must be left as it is.
const word = fc.stringMatching(/^[a-zA-Z0-9 ,.!]{0,12}$/);
const value = fc.oneof(
  word,
  key.map((k) => `{{${k}}}`),
);

/** A text of words and `{{key}}` placeholders drawn from `keys`. */
const textOf = (keys: string[]) =>
  fc
    .array(
      fc.oneof(
        word,
        fc.constantFrom(...keys).map((k) => `{{${k}}}`),
      ),
      { maxLength: 6 },
    )
    .map((pieces) => pieces.join(' '));

const template = fc.uniqueArray(key, { minLength: 1, maxLength: 4 }).chain((keys) =>
  fc.record({
    keys: fc.constant(keys),
    components: fc.array(
      fc.record({ type: fc.constantFrom('HEADER' as const, 'BODY' as const), text: textOf(keys) }),
      { minLength: 1, maxLength: 3 },
    ),
    values: fc.tuple(...keys.map(() => value)),
  }),
);

describe('renderTemplateText', () => {
  it('fills every placeholder with its value, once, and leaves no declared placeholder behind', () => {
    fc.assert(
      fc.property(template, ({ keys, components, values }) => {
        const variables = Object.fromEntries(keys.map((k, i) => [k, values[i]!]));
        const text = renderTemplateText(components, variables);
        // The same text a plain split-and-join gives: each placeholder replaced, values not re-read.
        const expected = [
          ...components.filter((c) => c.type === 'HEADER'),
          ...components.filter((c) => c.type === 'BODY'),
        ]
          .map((c) =>
            c.text
              .split(/(\{\{[A-Za-z0-9_]+\}\})/)
              .map((piece) => {
                const m = /^\{\{([A-Za-z0-9_]+)\}\}$/.exec(piece);
                return m ? (variables[m[1]!] ?? piece) : piece;
              })
              .join('')
              .trim(),
          )
          .filter((t) => t.length > 0)
          .join('\n\n');
        expect(text).toBe(expected);
      }),
    );
  });

  it('leaves a placeholder without a value as it was', () => {
    fc.assert(
      fc.property(key, word, (k, w) => {
        const components: TemplateComponent[] = [{ type: 'BODY', text: `${w} {{${k}}}` }];
        expect(renderTemplateText(components, {})).toContain(`{{${k}}}`);
      }),
    );
    // Found by the property above: a placeholder named like an Object method was filled with it.
    for (const k of ['valueOf', 'toString', 'constructor', '__proto__']) {
      expect(renderTemplateText([{ type: 'BODY', text: `Hi {{${k}}}` }], {})).toBe(`Hi {{${k}}}`);
    }
  });
});

describe('bindTemplate', () => {
  it('fills a template whose variables are all bound: no placeholder is left, each value is there', () => {
    const source = fc.constantFrom(
      'name',
      'firstName',
      'referralCode',
      'invitePhone',
      'value',
    ) as fc.Arbitrary<TemplateVariable['source']>;
    fc.assert(
      fc.property(
        template,
        fc.array(source, { minLength: 4, maxLength: 4 }),
        fc.stringMatching(/^[A-Za-z]{1,10}( [A-Za-z]{1,10})?$/),
        fc.constantFrom('en', 'es', 'es_MX'),
        ({ keys, components, values }, sources, name, language) => {
          // Values given with the send are plain words here, so the text can be searched for them.
          const given = Object.fromEntries(
            keys.map((k, i) => [k, `v${i}${values[i]!.replace(/[{}]/g, '')}x`]),
          );
          const variables = keys.map(
            (k, i): TemplateVariable => ({ key: k, type: 'text', source: sources[i]! }),
          );
          expect(unboundVariables(components, variables, given)).toEqual([]);
          const bound = bindTemplate(
            { language, components, variables },
            { phoneNumber: '+13055550100', name, referralCode: 'ABC234' },
            given,
            'America/New_York',
          );
          for (const k of placeholderKeys(components)) {
            expect(bound.text).not.toContain(`{{${k}}}`);
            expect(bound.text).toContain(bound.variables[k]!);
          }
          for (const [i, k] of keys.entries()) {
            const expected = {
              name,
              firstName: name.split(' ')[0]!,
              referralCode: 'ABC234',
              invitePhone: '+1 (305) 555-0100',
              value: given[k]!,
              expirationDate: '',
            }[sources[i]!];
            expect(bound.variables[k]).toBe(expected);
          }
        },
      ),
    );
  });

  it('names an unbound variable: a placeholder nobody declared, or a value left empty', () => {
    fc.assert(
      fc.property(key, key, (declared, stray) => {
        fc.pre(declared !== stray);
        const components: TemplateComponent[] = [
          { type: 'BODY', text: `Hi {{${declared}}}, see {{${stray}}}` },
        ];
        const variables: TemplateVariable[] = [{ key: declared, type: 'text', source: 'value' }];
        expect(unboundVariables(components, variables, { [declared]: 'x' })).toEqual([stray]);
        expect(unboundVariables(components, variables, { [declared]: '  ' })).toEqual([
          declared,
          stray,
        ]);
      }),
    );
  });
});
