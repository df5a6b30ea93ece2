import { describe, expect, it } from 'vitest';
import { replyIntent } from './inbound.js';

describe('replies to the sender number', () => {
  it.each([
    'STOP',
    'stop',
    ' Unsubscribe ',
    'STOPALL',
    'cancel',
    'END',
    'quit',
    'revoke',
    'OPTOUT',
  ])('treats %j as an opt-out', (body) => expect(replyIntent(body)).toBe('opt-out'));
  it.each(['START', 'unstop', 'Yes'])('treats %j as an opt-in', (body) =>
    expect(replyIntent(body)).toBe('opt-in'),
  );
  it.each(['HELP', 'help '])('treats %j as a request for help', (body) =>
    expect(replyIntent(body)).toBe('help'),
  );
  it.each(['please stop', 'STOP IT', 'hello', ''])(
    'ignores %j, which is not just a keyword',
    (body) => expect(replyIntent(body)).toBeNull(),
  );
});
