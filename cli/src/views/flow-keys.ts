// Which intent a key press means at each step of the interactive send. The flow reads keys through
// one handler for its whole life and decides here, from the state the key arrives in, so a key
// typed before the screen redrew still lands in the step the person sees next.
import type { Key } from 'ink';
import type { FlowState, Intent } from './send-flow-state.js';

/** A key as Ink reports it: the character typed and the special keys the flow answers. */
export type KeyPress = { input: string } & Partial<
  Pick<
    Key,
    | 'return'
    | 'escape'
    | 'tab'
    | 'upArrow'
    | 'downArrow'
    | 'leftArrow'
    | 'rightArrow'
    | 'backspace'
    | 'delete'
    | 'ctrl'
    | 'meta'
  >
>;

/** The words that answer the confirmation, in the run's language (y/yes; s/sí in Spanish). */
export interface Answers {
  yes: ReadonlySet<string>;
  no: ReadonlySet<string>;
}

export function keyIntent(state: FlowState, key: KeyPress, answers: Answers): Intent | null {
  const { input } = key;
  switch (state.step) {
    case 'summary':
      if (key.return) return { type: 'review' };
      if (key.escape || input === 'c') return { type: 'cancel' };
      return null;
    case 'review':
      return state.focus === 'search' ? searchKey(key) : tableKey(key);
    case 'confirm': {
      const answer = input.trim().toLowerCase();
      if (key.return || answers.yes.has(answer)) return { type: 'confirm' };
      if (key.escape || answers.no.has(answer)) return { type: 'back' };
      return null;
    }
    default:
      return null;
  }
}

function searchKey(key: KeyPress): Intent | null {
  if (key.tab || key.downArrow || key.return || key.escape)
    return { type: 'focus', focus: 'table' };
  if (key.backspace || key.delete) return { type: 'erase' };
  if (key.input && !key.ctrl && !key.meta) return { type: 'type', text: key.input };
  return null;
}

function tableKey(key: KeyPress): Intent | null {
  const { input } = key;
  if (key.upArrow) return { type: 'move', by: -1 };
  if (key.downArrow) return { type: 'move', by: 1 };
  if (key.leftArrow) return { type: 'page', by: -1 };
  if (key.rightArrow) return { type: 'page', by: 1 };
  if (input === ' ') return { type: 'toggle' };
  if (input === 'a') return { type: 'toggleAll' };
  if (input === 'r') return { type: 'rowsPerPage' };
  if (key.tab || input === '/') return { type: 'focus', focus: 'search' };
  if (input === 's') return { type: 'send' };
  if (input === 'c' || key.escape) return { type: 'cancel' };
  return null;
}

const ARROWS: Record<string, keyof KeyPress> = {
  A: 'upArrow',
  B: 'downArrow',
  C: 'rightArrow',
  D: 'leftArrow',
};
const CONTROLS: Record<string, KeyPress> = {
  '\r': { input: '', return: true },
  '\n': { input: '', return: true },
  '\t': { input: '', tab: true },
  '\x7f': { input: '', backspace: true },
  '\b': { input: '', backspace: true },
  '\x1b': { input: '', escape: true },
  '\x03': { input: 'c', ctrl: true },
};

/**
 * Keys that reached the terminal faster than it was read arrive as one string (Enter and Ctrl-C,
 * a space and `s`), which Ink reads as one unknown key: here they are told apart, each character
 * a key of its own, an arrow's escape sequence kept whole, other control characters dropped.
 */
export function splitKeys(input: string): KeyPress[] {
  const chars = Array.from(input);
  const keys: KeyPress[] = [];
  for (let i = 0; i < chars.length; i++) {
    const char = chars[i]!;
    const arrow = char === '\x1b' && chars[i + 1] === '[' ? ARROWS[chars[i + 2] ?? ''] : undefined;
    if (arrow) {
      keys.push({ input: '', [arrow]: true });
      i += 2;
    } else if (CONTROLS[char]) keys.push(CONTROLS[char]);
    else if (char >= ' ') keys.push({ input: char });
  }
  return keys;
}

/** Ctrl-C, which ends the flow as it does anywhere in the command. */
export const isInterrupt = (key: KeyPress) => key.ctrl === true && key.input === 'c';
