import { describe, expect, it } from 'vitest';
import { isValidTwilioSignature, replyIntent, twilioSignature } from './inbound.js';

describe('replies to the sender number', () => {
  it.each(['STOP', 'stop', ' Unsubscribe ', 'STOPALL', 'cancel', 'END', 'quit'])(
    'treats %j as an opt-out',
    (body) => expect(replyIntent(body)).toBe('opt-out'),
  );
  it.each(['START', 'unstop', 'Yes'])('treats %j as an opt-in', (body) =>
    expect(replyIntent(body)).toBe('opt-in'),
  );
  it.each(['please stop', 'STOP IT', 'hello', ''])(
    'ignores %j, which is not just a keyword',
    (body) => expect(replyIntent(body)).toBeNull(),
  );
});

describe("Twilio's request signature", () => {
  // The example from Twilio's signature-validation documentation.
  const url = 'https://mycompany.com/myapp.php?foo=1&bar=2';
  const params = {
    CallSid: 'CA1234567890ABCDE',
    Caller: '+14158675310',
    Digits: '1234',
    From: '+14158675310',
    To: '+18005551212',
  };

  it("matches Twilio's documented example", () => {
    expect(twilioSignature('12345', url, params)).toBe('GvWf1cFY/Q7PnoempGyD5oXAezc=');
    expect(isValidTwilioSignature('12345', url, params, 'GvWf1cFY/Q7PnoempGyD5oXAezc=')).toBe(true);
  });

  it('refuses a signature for other parameters, another URL, another token or another length', () => {
    const good = twilioSignature('12345', url, params);
    expect(isValidTwilioSignature('12345', url, { ...params, Digits: '9' }, good)).toBe(false);
    expect(isValidTwilioSignature('12345', `${url}&x=1`, params, good)).toBe(false);
    expect(isValidTwilioSignature('54321', url, params, good)).toBe(false);
    expect(isValidTwilioSignature('12345', url, params, good.slice(1))).toBe(false);
  });
});
