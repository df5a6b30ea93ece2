// /flex/invite: invite a friend by phone, see who joined and paid, and the free weeks earned.
// /flex/invite/:phoneNumber fills the friend's number in. The friend's text is queued by the
// gateway and sent by its worker (it may wait for the morning), so the screen says "queued" and
// follows it until it is sent.
import {
  type DriverInvitation,
  ForbiddenError,
  normalizePhone,
  RateLimitError,
} from '@blockcatch/sdk';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { FormAlert } from '../../components/FormAlert.js';
import { Input } from '../../components/ui/Input.js';
import { useToast } from '../../components/ui/Toast.js';
import { useAuth } from '../../hooks/useAuth.js';
import { useDriverFormat } from '../../hooks/useDriverFormat.js';
import { errorMessage } from '../../lib/errorMessage.js';
import { gateway } from '../../sdk.js';
import { invitationQueries } from './queries.js';

/** While a friend's text waits for the worker, the list is read again this often. */
const TEXT_POLL_MS = 5000;

const textPending = (item: DriverInvitation) =>
  item.smsStatus === 'queued' || item.smsStatus === 'sending';

export default function InvitePage() {
  const { t } = useTranslation();
  const { show } = useToast();
  const params = useParams();
  const queryClient = useQueryClient();
  const invitations = useQuery({
    ...invitationQueries.mine(),
    refetchInterval: (query) => (query.state.data?.Items.some(textPending) ? TEXT_POLL_MS : false),
  });
  const [phone, setPhone] = useState(params.phoneNumber ?? '');
  const [alert, setAlert] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  // Invitation dates on the driver's zone, as every driver screen.
  const fmt = useDriverFormat();
  const { state: auth } = useAuth();
  // /flex/invite/:phoneNumber points at one friend: their line is marked in the list.
  const pointedAt = params.phoneNumber ? normalizePhone(params.phoneNumber) : null;

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setAlert(null);
    if (!phone.trim()) return setAlert(t('flex.invite.phoneRequired'));
    const normalized = normalizePhone(phone);
    if (!normalized) return setAlert(t('auth.invalidPhone'));
    if (auth.status === 'signed-in' && normalized === auth.user.phoneNumber) {
      return setAlert(t('flex.invite.ownNumber'));
    }
    setBusy(true);
    try {
      await gateway.driver.invite(normalized);
      show('success', t('flex.invite.queued', { phoneNumber: fmt.phone(normalized) }));
      setPhone('');
      void queryClient.invalidateQueries({ queryKey: invitationQueries.mine().queryKey });
    } catch (error) {
      setAlert(inviteErrorMessage(error));
    } finally {
      setBusy(false);
    }
  };

  /** Past a limit, the time the driver can invite again (Retry-After); before it opens, why. */
  const inviteErrorMessage = (error: unknown): string => {
    if (error instanceof RateLimitError) {
      const seconds = Number(error.headers['retry-after']);
      if (Number.isFinite(seconds) && seconds > 0) {
        return t('flex.invite.rateLimited', { time: fmt.dateTime(Date.now() + seconds * 1000) });
      }
    }
    if (error instanceof ForbiddenError) return t('flex.invite.notYet');
    return errorMessage(t, error, t('errors.generic'));
  };

  return (
    <main className="page">
      <h1>{t('flex.invite.title')}</h1>
      <p>{t('flex.invite.description')}</p>
      <form className="card form" onSubmit={onSubmit} noValidate>
        <Input
          label={t('flex.invite.phoneNumber')}
          type="tel"
          inputMode="tel"
          value={phone}
          onChange={setPhone}
        />
        <FormAlert text={alert} />
        <button type="submit" className="primary" disabled={busy}>
          {t('flex.invite.send')}
        </button>
      </form>
      <section aria-labelledby="referrals-title">
        <h2 id="referrals-title">{t('flex.invite.yourInvitations')}</h2>
        {invitations.error ? (
          <p role="alert">{t('errors.couldNotLoadInvitations')}</p>
        ) : invitations.data ? (
          <>
            <p>
              {t('flex.invite.referralCode', { code: invitations.data.referralCode })} ·{' '}
              {t('flex.invite.freeWeeks', { count: invitations.data.freeWeeksEarned })}
            </p>
            {invitations.data.Items.length === 0 ? (
              <p className="muted">{t('flex.invite.none')}</p>
            ) : (
              <ul className="invitation-list">
                {invitations.data.Items.map((item) => (
                  <li
                    key={item.phoneNumber}
                    className={item.phoneNumber === pointedAt ? 'pointed' : undefined}
                    aria-current={item.phoneNumber === pointedAt ? 'true' : undefined}
                  >
                    <span>{fmt.phone(item.phoneNumber)}</span>{' '}
                    <span className="muted">
                      {t('flex.invite.invitedOn', {
                        date: fmt.date(item.dateInvitedTimestamp),
                      })}
                    </span>{' '}
                    <strong>
                      {item.freeWeek
                        ? t('flex.invite.freeWeekEarned')
                        : t(`flex.invite.status.${item.status}`)}
                    </strong>
                    {item.smsStatus ? (
                      <>
                        {' '}
                        <span className="muted">{t(`flex.invite.text.${item.smsStatus}`)}</span>
                      </>
                    ) : null}
                  </li>
                ))}
              </ul>
            )}
          </>
        ) : (
          <p className="muted">{t('common.loading')}</p>
        )}
      </section>
    </main>
  );
}
