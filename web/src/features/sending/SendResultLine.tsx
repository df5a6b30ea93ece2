// The last send's outcome above the form: the server's message, or our own fallback text.
import type { SendOutcome } from './useSendMessage.js';

export function SendResultLine({ result }: { result: SendOutcome | null }) {
  if (!result) return null;
  return (
    <p className={result.ok ? 'send-result ok-text' : 'send-result error-text'}>{result.text}</p>
  );
}
