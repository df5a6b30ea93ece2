// /flex/reseller: drivers who signed up with my code and whether they paid (docs/product.md,
// 'Payments and referrals').
import { HttpError } from '@blockcatch/sdk';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { LoadingOverlay } from '../../components/LoadingOverlay.js';
import { useAuth } from '../../hooks/useAuth.js';
import { useDriverFormat } from '../../hooks/useDriverFormat.js';
import { resellerQueries } from './queries.js';

export default function ResellerPage() {
  const { t } = useTranslation();
  const { state } = useAuth();
  // The view is asked for only by those allowed to read it: anyone else is told at once, and the
  // browser logs no refused request.
  const allowed = state.status === 'signed-in' && state.user.reseller === true;
  const reseller = useQuery({ ...resellerQueries.reseller(), enabled: allowed });
  const fmt = useDriverFormat();
  if (allowed && reseller.isPending) return <LoadingOverlay />;
  return (
    <main className="page">
      <h1>{t('flex.reseller.title')}</h1>
      {!allowed || (reseller.error instanceof HttpError && reseller.error.status === 403) ? (
        <p>{t('flex.reseller.notReseller')}</p>
      ) : reseller.error || !reseller.data ? (
        <p role="alert">{t('errors.fetchFailed')}</p>
      ) : (
        <>
          <p>{t('flex.invite.referralCode', { code: reseller.data.referralCode })}</p>
          {reseller.data.Items.length === 0 ? (
            <p className="muted">{t('flex.reseller.none')}</p>
          ) : (
            <div className="table-scroll">
              <table>
                <thead>
                  <tr>
                    <th scope="col">{t('flex.reseller.name')}</th>
                    <th scope="col">{t('flex.reseller.phone')}</th>
                    <th scope="col">{t('flex.reseller.joined')}</th>
                    <th scope="col">{t('flex.reseller.expires')}</th>
                    <th scope="col">{t('flex.reseller.payment')}</th>
                  </tr>
                </thead>
                <tbody>
                  {reseller.data.Items.map((user) => (
                    <tr key={`${user.phoneLast4}-${user.createDateTimestamp}`}>
                      <td>{user.name}</td>
                      <td>•••• {user.phoneLast4}</td>
                      <td>{fmt.date(user.createDateTimestamp)}</td>
                      <td>
                        {user.expirationDateTimestamp === null
                          ? t('common.none')
                          : fmt.date(user.expirationDateTimestamp)}
                      </td>
                      <td>{t(`flex.reseller.standing.${user.paymentStatus}`)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </>
      )}
    </main>
  );
}
