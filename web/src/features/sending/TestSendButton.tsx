// "Send a test to me": the review's message, rendered for the recipient the review shows, sent to
// the signed-in admin's own phone only. It is in no count: the gateway makes no send job for it.
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../lib/errorMessage.js';
import { gateway } from '../../sdk.js';
import { type ComposedMessage, toMsgTemplate } from './send-request.js';

export function TestSendButton({
  composed,
  renderFor,
  disabled,
}: {
  composed: ComposedMessage;
  /** The recipient the review renders the message for (the first selected one). */
  renderFor: string | undefined;
  disabled: boolean;
}) {
  const { t } = useTranslation();
  const test = useMutation({
    mutationFn: () =>
      gateway.sends.test({
        ...(composed.channel === 'sms'
          ? { channel: 'sms', message: composed.message }
          : { channel: 'whatsapp', msgTemplate: toMsgTemplate(composed.template) }),
        ...(renderFor ? { renderFor } : {}),
      }),
  });
  return (
    <>
      <button
        type="button"
        onClick={() => test.mutate()}
        disabled={disabled || test.isPending}
        data-testid="send-test"
      >
        {t('admin.review.sendTest')}
      </button>
      {test.data && (
        <p role="status" className="hint" data-testid="send-test-result">
          {t('admin.review.testSent', { to: test.data.to, renderedFor: test.data.renderedFor })}
        </p>
      )}
      {test.error != null && (
        <p role="alert" className="error-text">
          {errorMessage(t, test.error, t('admin.review.testFailed'))}
        </p>
      )}
    </>
  );
}
