// The dashboard's billing word: when the last renewal failed, what the bank said and a way to
// update the card (the Billing page opens the processor's portal). Ending service is offered
// "Renew" by the service banner beside it.
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { declineText } from '../../lib/declineText.js';
import { billingQueries } from '../../lib/queries.js';

export function BillingNotice() {
  const { t } = useTranslation();
  const billing = useQuery(billingQueries.summary());
  const sub = billing.data?.subscription;
  if (sub?.status !== 'past_due') return null;
  return (
    <p className="banner banner-danger" role="alert" data-testid="billing-notice">
      {t('flex.billing.notice.failed', { reason: declineText(t, sub.lastFailureCode) })}{' '}
      <Link to="/flex/billing">{t('flex.billing.notice.updateCard')}</Link>
    </p>
  );
}
