// /admin/tokens: tokens for machines (a cron job's BLOCKCATCH_TOKEN), as `blockcatch auth token`
// handles them: create one (its secret is shown once, here), list them with their last use, revoke
// one. Admins see their own; the owner sees everyone's.
import type { ApiToken, CreatedApiToken } from '@blockcatch/sdk';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Spinner } from '../../components/admin/Spinner.js';
import { Badge } from '../../components/ui/Badge.js';
import { Button } from '../../components/ui/Button.js';
import { Input } from '../../components/ui/Input.js';
import { Table } from '../../components/ui/Table.js';
import { useToast } from '../../components/ui/Toast.js';
import { useFormat } from '../../hooks/useFormat.js';
import { errorMessage } from '../../lib/errorMessage.js';
import { gateway } from '../../sdk.js';
import { tokenQueries } from './queries.js';

/** How long a new token lives, as `--expires` offers it; the gateway takes 1 to 366 days. */
const LIFETIMES = [30, 90, 180, 365] as const;
const DEFAULT_LIFETIME = 90;
/** The gateway's bound on a name, checked here first so the form says it before sending. */
const NAME_MAX = 60;
const NAME = /^[\w .@-]+$/;

function nameProblem(name: string): boolean {
  const trimmed = name.trim();
  return trimmed === '' || trimmed.length > NAME_MAX || !NAME.test(trimmed);
}

export default function TokensPage() {
  const { t } = useTranslation();
  const tokens = useQuery(tokenQueries.apiTokens());
  const [created, setCreated] = useState<CreatedApiToken | null>(null);

  return (
    <main className="page admin-page">
      <h1>{t('admin.tokens.title')}</h1>
      <p>
        <Link to="/admin/tools">{t('admin.tabs.tools')}</Link>
      </p>
      <p>{t('admin.tokens.intro')}</p>
      <CreateToken onCreated={setCreated} />
      {created && (
        <section className="card" aria-labelledby="new-token-title" data-testid="new-token">
          <h2 id="new-token-title">{t('admin.tokens.createdTitle', { name: created.name })}</h2>
          <p>{t('admin.tokens.shownOnce')}</p>
          <pre className="token-secret">
            <code data-testid="new-token-secret">{created.token}</code>
          </pre>
          <p className="hint">{t('admin.tokens.howToUse')}</p>
          <Button onClick={() => setCreated(null)}>{t('admin.tokens.done')}</Button>
        </section>
      )}
      {tokens.status === 'pending' && <Spinner />}
      {tokens.status === 'error' && <p className="error-text">{t('admin.tokens.loadFailed')}</p>}
      {tokens.status === 'success' &&
        (tokens.data.length === 0 ? (
          <p data-testid="no-tokens">{t('admin.tokens.none')}</p>
        ) : (
          <Table caption={t('admin.tokens.title')}>
            <thead>
              <tr>
                <th scope="col">{t('admin.tokens.columns.name')}</th>
                <th scope="col">{t('admin.tokens.columns.created')}</th>
                <th scope="col">{t('admin.tokens.columns.expires')}</th>
                <th scope="col">{t('admin.tokens.columns.lastUsed')}</th>
                <th scope="col">{t('admin.tokens.columns.state')}</th>
                <th scope="col">
                  <span className="visually-hidden">{t('admin.tokens.revoke')}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {tokens.data.map((token) => (
                <TokenRow key={token.id} token={token} />
              ))}
            </tbody>
          </Table>
        ))}
    </main>
  );
}

function CreateToken({ onCreated }: { onCreated: (token: CreatedApiToken) => void }) {
  const { t } = useTranslation();
  const toast = useToast();
  const queryClient = useQueryClient();
  const [name, setName] = useState('');
  const [days, setDays] = useState<number>(DEFAULT_LIFETIME);
  const [tried, setTried] = useState(false);
  const create = useMutation({
    mutationFn: () => gateway.apiTokens.create({ name: name.trim(), expiresInDays: days }),
    onSuccess: (token) => {
      setName('');
      setTried(false);
      onCreated(token);
    },
    onError: (error) => toast.show('error', errorMessage(t, error, t('admin.tokens.createFailed'))),
    onSettled: () => queryClient.invalidateQueries({ queryKey: tokenQueries.apiTokens().queryKey }),
  });
  const invalid = nameProblem(name);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTried(true);
    if (!invalid) create.mutate();
  };
  return (
    <form className="card" onSubmit={submit} aria-labelledby="create-token-title" noValidate>
      <h2 id="create-token-title">{t('admin.tokens.createTitle')}</h2>
      <Input
        label={t('admin.tokens.columns.name')}
        value={name}
        onChange={setName}
        maxLength={NAME_MAX}
        placeholder="cron"
        error={tried && invalid ? t('admin.tokens.nameInvalid', { max: NAME_MAX }) : undefined}
      />
      <div className="field">
        <label htmlFor="token-lifetime">{t('admin.tokens.lifetime')}</label>
        <select
          id="token-lifetime"
          value={days}
          onChange={(event) => setDays(Number(event.target.value))}
        >
          {LIFETIMES.map((count) => (
            <option key={count} value={count}>
              {t('admin.tokens.days', { count })}
            </option>
          ))}
        </select>
      </div>
      <Button type="submit" variant="primary" busy={create.isPending}>
        {t('admin.tokens.create')}
      </Button>
    </form>
  );
}

function TokenRow({ token }: { token: ApiToken }) {
  const { t } = useTranslation();
  const fmt = useFormat();
  const toast = useToast();
  const queryClient = useQueryClient();
  const revoke = useMutation({
    mutationFn: () => gateway.apiTokens.revoke(token.id),
    onSuccess: () => toast.show('success', t('admin.tokens.revoked', { name: token.name })),
    onError: (error) => toast.show('error', errorMessage(t, error, t('admin.tokens.revokeFailed'))),
    onSettled: () => queryClient.invalidateQueries({ queryKey: tokenQueries.apiTokens().queryKey }),
  });
  const state =
    token.revokedAt !== null ? 'revoked' : token.expiresAt <= Date.now() ? 'expired' : 'active';
  return (
    <tr data-testid="token-row" data-state={state}>
      <td>{token.name}</td>
      <td>{fmt.dateTime(token.createdAt)}</td>
      <td>{fmt.dateTime(token.expiresAt)}</td>
      <td>
        {token.lastUsedAt === null ? t('admin.tokens.never') : fmt.dateTime(token.lastUsedAt)}
      </td>
      <td>
        <Badge tone={state === 'active' ? 'ok' : 'danger'}>
          {t(`admin.tokens.states.${state}`)}
        </Badge>
      </td>
      <td>
        {state === 'active' && (
          <Button
            variant="danger"
            busy={revoke.isPending}
            onClick={() => revoke.mutate()}
            aria-label={t('admin.tokens.revokeNamed', { name: token.name })}
          >
            {t('admin.tokens.revoke')}
          </Button>
        )}
      </td>
    </tr>
  );
}
