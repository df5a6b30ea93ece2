import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { StaticRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { Badge } from './Badge.js';
import { Button, ButtonLink } from './Button.js';

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

  it('colours a badge by its tone', () => {
    expect(html(createElement(Badge, { tone: 'danger' }, 'Expired'))).toBe(
      '<span class="badge badge-danger">Expired</span>',
    );
  });
});
