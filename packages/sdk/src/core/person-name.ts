// What a person's name may be, and what of it may go in a text to someone who is not a user. A name
// is chosen by whoever signs up, and an invitation texts it to a stranger in the service's name: no
// link, address or number may ride along. Every pattern here is a single character class or a
// fixed-width sequence (linear time), and runs only on a name already within MAX_NAME_LENGTH.
import { MAX_NAME_LENGTH } from './schemas/bounds.js';

/** The most of an inviter's first name an invitation text carries. */
export const MAX_FIRST_NAME_LENGTH = 30;

/** Why a name is refused; the web form and the gateway's message are chosen by it. */
export type NameProblem = 'required' | 'too-long' | 'control-character' | 'link';

/** The gateway's words for each problem, after the field's name. */
export const NAME_PROBLEM_MESSAGES: Record<NameProblem, string> = {
  required: 'must not be empty.',
  'too-long': `must be at most ${MAX_NAME_LENGTH} characters.`,
  'control-character':
    'must not contain control characters (line breaks, tabs, direction marks); type the name on one line.',
  link: 'must not contain a web address or an email; type only the name.',
};

// C0 and C1 controls, DEL, and the bidirectional overrides and isolates that reorder what is shown.
const CONTROL = /[\p{Cc}\u202A-\u202E\u2066-\u2069]/u;
// A label's last character, a dot, two letters: `evil.example`, `bit.ly`, `a@b.co`. Fixed width.
const DOMAIN = /[\p{L}\p{N}_-]\.\p{L}\p{L}/u;
const SCHEME = '://';
const WWW = /www\./i;
/** Seven digits anywhere are enough for a phone number a stranger could call or text. */
const PHONE_DIGITS = 7;
// A first name is letters (with their combining marks), spaces, apostrophes and hyphens, and nothing
// else. Checked a character at a time: a Unicode class run over a whole string costs tens of
// nanoseconds a character, too slow for the 1 MB that every pattern here is held to.
const LETTER_OR_MARK = /^[\p{L}\p{M}]$/u;
const LETTER = /\p{L}/u;
const SPACE = /\s/u;

/** Whether the (bounded) text holds a web address, a domain or an email address. */
function holdsLink(text: string): boolean {
  return text.includes(SCHEME) || text.includes('@') || WWW.test(text) || DOMAIN.test(text);
}

function isFirstNameWord(word: string): boolean {
  if (word === '') return false;
  for (const c of word) {
    if (c !== "'" && c !== '’' && c !== ' ' && c !== '-' && !LETTER_OR_MARK.test(c)) return false;
  }
  return true;
}

function digitCount(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 48 && c <= 57) n++;
  }
  return n;
}

/**
 * Why a name typed at sign-up or in a profile edit cannot be kept, or null when it can: it must
 * have some text, at most MAX_NAME_LENGTH characters, no control characters and no link or email.
 */
export function nameProblem(name: string): NameProblem | null {
  if (name.length > MAX_NAME_LENGTH) return 'too-long';
  if (name.trim() === '') return 'required';
  if (CONTROL.test(name)) return 'control-character';
  if (holdsLink(name)) return 'link';
  return null;
}

/**
 * The inviter's first name as a text to a stranger may carry it, or null when it must be left out
 * ("A friend invited you"): the first word of the name, letters, apostrophes and hyphens only, at
 * most MAX_FIRST_NAME_LENGTH characters, and only when the whole name holds no link, domain,
 * email or phone number (a name built to make the text an advert names none of it).
 */
export function invitationFirstName(name: string): string | null {
  if (name.length > MAX_NAME_LENGTH || CONTROL.test(name)) return null;
  const text = name.trim();
  if (holdsLink(text) || digitCount(text) >= PHONE_DIGITS) return null;
  const first = text.split(SPACE, 1)[0] ?? '';
  if (first.length > MAX_FIRST_NAME_LENGTH) return null;
  return isFirstNameWord(first) && LETTER.test(first) ? first : null;
}
