// Tracked links in marketing SMS: each http(s) address in the text is sent as a short link of the
// gateway's own (`<base>/l/<code>`), one per recipient, which redirects to it and counts the click
// (docs/product.md, 'Tracked links'). Pure: the gateway makes the codes and keeps them.

/** Characters of a code: 8 of 62 is about 47.6 random bits, a dozen characters shorter than a UUID. */
export const LINK_CODE_LENGTH = 8;
export const LINK_CODE_ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
/** The path a short link's code follows. */
export const LINK_PATH = '/l/';

const CODE_SHAPE = /^[0-9A-Za-z]{8}$/;

/** Whether `code` has a link code's shape (checked before anything is looked up). */
export function isLinkCode(code: string): boolean {
  // The length first: a pattern never reads a long value.
  return code.length === LINK_CODE_LENGTH && CODE_SHAPE.test(code);
}

interface FoundLink {
  url: string;
  start: number;
  end: number;
}

// `[^\s<>"]+` ends at the first space: linear in the text, whatever it holds.
const CANDIDATE = /\bhttps?:\/\/[^\s<>"]+/gi;
const TRAILING = '.,;:!?\'’"';

/**
 * The http(s) addresses in `text`, in order. Punctuation that ends a sentence is not part of one,
 * nor is a closing bracket it does not open; what the URL parser refuses is left as text.
 */
export function findLinks(text: string): FoundLink[] {
  const found: FoundLink[] = [];
  for (const match of text.matchAll(CANDIDATE)) {
    const url = match[0].slice(0, trimmedEnd(match[0]));
    if (!hasHost(url)) continue;
    found.push({ url, start: match.index, end: match.index + url.length });
  }
  return found;
}

/**
 * Where the address in `candidate` ends: trailing punctuation dropped, and a closing bracket
 * dropped while the address has more of them than opening ones. Brackets are counted once, so a
 * long run of them costs one pass, not one per bracket.
 */
function trimmedEnd(candidate: string): number {
  const open: Record<string, number> = { ')': 0, ']': 0 };
  const close: Record<string, number> = { ')': 0, ']': 0 };
  for (const c of candidate) {
    if (c === '(') open[')']!++;
    else if (c === '[') open[']']!++;
    else if (c === ')' || c === ']') close[c]!++;
  }
  let end = candidate.length;
  while (end > 0) {
    const last = candidate[end - 1]!;
    if (TRAILING.includes(last)) end--;
    else if ((last === ')' || last === ']') && open[last]! < close[last]!) {
      close[last]!--;
      end--;
    } else break;
  }
  return end;
}

function hasHost(url: string): boolean {
  try {
    return new URL(url).hostname !== '';
  } catch {
    return false;
  }
}

/** `text` with its i-th address replaced by `shortFor(url, i)`. */
export function replaceLinks(
  text: string,
  shortFor: (url: string, index: number) => string,
): string {
  const links = findLinks(text);
  let out = '';
  let at = 0;
  links.forEach((link, i) => {
    out += text.slice(at, link.start) + shortFor(link.url, i);
    at = link.end;
  });
  return out + text.slice(at);
}

/** The short link of `code` under `base` (the gateway's link domain, without a trailing slash). */
export function shortLink(base: string, code: string): string {
  return `${base}${LINK_PATH}${code}`;
}

/**
 * The text as a recipient reads it, with a code of the same length standing in for each of theirs:
 * what the review measures segments and cost by, the same as the real send's.
 */
export function withSampleLinks(text: string, base: string): string {
  const sample = 'x'.repeat(LINK_CODE_LENGTH);
  return replaceLinks(text, () => shortLink(base, sample));
}
