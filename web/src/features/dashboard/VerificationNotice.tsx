// The delivery platform asks the driver to complete a check in its own app (a captcha, an identity
// check): what to do, and "I've done it", which resumes searching once the platform agrees.
import { HttpError } from '@blockcatch/sdk';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useToast } from '../../components/ui/Toast.js';
import { errorMessage } from '../../lib/errorMessage.js';
import { driverQueries } from '../../lib/queries.js';
import { gateway } from '../../sdk.js';

export function VerificationNotice() {
  const { t } = useTranslation();
  const { show } = useToast();
  const queryClient = useQueryClient();
  const confirm = useMutation({
    mutationFn: () => gateway.platform.confirmVerification(),
    onSuccess: async () => {
      show('success', t('flex.dashboard.verify.resumed'));
      await queryClient.invalidateQueries({ queryKey: driverQueries.all });
    },
  });
  const failure = confirm.error;
  const failureText =
    failure instanceof HttpError && failure.serverCode === 'verification_pending'
      ? t('flex.dashboard.verify.pending')
      : failure
        ? errorMessage(t, failure, t('errors.generic'))
        : null;
  return (
    <section className="needs-attention verification" role="alert" aria-live="polite">
      <h2>{t('flex.dashboard.verify.title')}</h2>
      <p>{t('flex.dashboard.verify.body')}</p>
      {failureText && <p className="field-error">{failureText}</p>}
      <button
        type="button"
        className="primary"
        disabled={confirm.isPending}
        onClick={() => confirm.mutate()}
      >
        {t('flex.dashboard.verify.done')}
      </button>
    </section>
  );
}
