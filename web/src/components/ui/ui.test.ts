import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { StaticRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { CodeInput, PhoneInput } from './Input.js';
import { Badge, Button, ButtonLink, Checkbox, Input, Select } from './index.js';

const html = (element: Parameters<typeof renderToStaticMarkup>[0]) =>
  renderToStaticMarkup(createElement(StaticRouter, { location: '/' }, element));

describe('the design system', () => {
  it('refuses a second press of a busy button and says it is busy', () => {
    const markup = html(createElement(Button, { variant: 'primary', busy: true }, 'Sign in'));
    expect(markup).toBe(
      '<button type="button" class="primary" disabled="" aria-busy="true">Sign in</button>',
    );
    expect(html(createElement(Button, {}, 'Close'))).toBe('<button type="button">Close</button>');
  });

  it('styles a route link and a plain link as the same button', () => {
    expect(html(createElement(ButtonLink, { to: '/register', variant: 'primary' }, 'Start'))).toBe(
      '<a class="button primary" href="/register" data-discover="true">Start</a>',
    );
    expect(html(createElement(ButtonLink, { href: '#sign-in', large: true }, 'Sign in'))).toBe(
      '<a class="button large" href="#sign-in">Sign in</a>',
    );
  });

  it('asks for a phone number with the phone keypad and a texted code with digits', () => {
    const phone = html(
      createElement(PhoneInput, { label: 'Phone', value: '', onChange: () => {} }),
    );
    expect(phone).toContain('type="tel"');
    expect(phone).toContain('inputMode="tel"');
    expect(phone).toContain('autoComplete="tel"');
    const code = html(createElement(CodeInput, { label: 'Code', value: '', onChange: () => {} }));
    expect(code).toContain('inputMode="numeric"');
    expect(code).toContain('autoComplete="one-time-code"');
    expect(code).not.toContain('type="tel"');
  });

  it('colours a badge by its tone', () => {
    expect(html(createElement(Badge, { tone: 'danger' }, 'Expired'))).toBe(
      '<span class="badge badge-danger">Expired</span>',
    );
  });

  const noop = () => {};

  it('wraps a labelled checkbox so a click on its text ticks it, and can disable it', () => {
    expect(
      html(
        createElement(Checkbox, {
          id: 'alert-won',
          labelClassName: 'toggle-tile',
          label: 'Won blocks',
          checked: true,
          disabled: true,
          onChange: noop,
        }),
      ),
    ).toBe(
      '<label class="toggle-tile" for="alert-won"><input type="checkbox" id="alert-won" disabled="" checked=""/>Won blocks</label>',
    );
  });

  it('marks an unticked checkbox invalid and points to the message saying why', () => {
    const markup = html(
      createElement(Checkbox, { id: 'terms', checked: false, onChange: noop, errorId: 'e' }),
    );
    expect(markup).toBe(
      '<input type="checkbox" aria-invalid="true" aria-describedby="e" id="terms"/>',
    );
    expect(html(createElement(Checkbox, { checked: false, onChange: noop }))).not.toContain(
      'aria-invalid',
    );
  });

  it('shows an input with its unit, and its error tied to it only when there is one', () => {
    const valid = html(
      createElement(Input, { label: 'Minimum pay', prefix: '$', value: '20', onChange: noop }),
    );
    expect(valid).toContain(
      '<div class="input-unit"><span class="unit" aria-hidden="true">$</span>',
    );
    expect(valid).not.toContain('aria-invalid');
    expect(valid).not.toContain('field-error');
    const invalid = html(
      createElement(Input, { label: 'Name', value: '', onChange: noop, error: 'Enter a name' }),
    );
    const describedBy = /aria-describedby="([^"]+)"/.exec(invalid)?.[1];
    expect(invalid).toContain('aria-invalid="true"');
    expect(invalid).toContain(`<p id="${describedBy}" class="field-error">Enter a name</p>`);
  });

  it('offers "any" first in a select, then each option, with the chosen one selected', () => {
    const markup = html(
      createElement(Select, {
        label: 'Region',
        value: 'TX',
        anyLabel: 'Any',
        options: ['CA', 'TX'],
        onChange: noop,
      }),
    );
    expect(markup).toMatch(
      /<option value="">Any<\/option><option value="CA">CA<\/option><option value="TX" selected="">TX<\/option>/,
    );
  });
});
