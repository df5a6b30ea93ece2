// Replies to the sender number (the inbound webhook): which replies opt a number out or back in.

/** Twilio's default opt-out and opt-in keywords; the whole reply must be the keyword. */
const OPT_OUT = new Set(['STOP', 'STOPALL', 'UNSUBSCRIBE', 'CANCEL', 'END', 'QUIT']);
const OPT_IN = new Set(['START', 'UNSTOP', 'YES']);

export function replyIntent(body: string): 'opt-out' | 'opt-in' | null {
  const word = body.trim().toUpperCase();
  if (OPT_OUT.has(word)) return 'opt-out';
  if (OPT_IN.has(word)) return 'opt-in';
  return null;
}
