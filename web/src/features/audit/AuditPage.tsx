// /admin/audit (owners): every staff action, newest first, filtered by action, person and days,
// with older events a page at a time and the filtered trail downloaded as CSV (itself recorded).

import { AUDIT_ACTIONS, type AuditAction, type AuditQuery } from '@blockcatch/sdk';
import { useInfiniteQuery, useMutation } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DateField } from '../../components/admin/DateField.js';
import { Spinner } from '../../components/admin/Spinner.js';
import { Button } from '../../components/ui/Button.js';
import { Input } from '../../components/ui/Input.js';
import { Table } from '../../components/ui/Table.js';
import { useAdminRole } from '../../hooks/admin/useAdminRole.js';
import { useFormat } from '../../hooks/useFormat.js';
import { gateway } from '../../sdk.js';

const PAGE = 50;

export default function AuditPage() {
  const { t } = useTranslation();
  const { isOwner } = useAdminRole();
  return (
    <main className="page admin-page">
      <h1>{t('admin.audit.title')}</h1>
      {isOwner ? <AuditTrail /> : <p>{t('admin.audit.ownersOnly')}</p>}
    </main>
  );
}

function AuditTrail() {
  const { t } = useTranslation();
  const fmt = useFormat();
  const actionId = useId();
  const [action, setAction] = useState<AuditAction | ''>('');
  const [actor, setActor] = useState('');
  const [from, setFrom] = useState<string | undefined>();
  const [to, setTo] = useState<string | undefined>();
  const filter: Omit<AuditQuery, 'before' | 'limit'> = {
    ...(action ? { action } : {}),
    ...(actor.trim() ? { actor: actor.trim() } : {}),
    ...(from ? { from } : {}),
    ...(to ? { to } : {}),
  };
  const events = useInfiniteQuery({
    queryKey: ['admin', 'audit', filter],
    queryFn: ({ pageParam }) =>
      gateway.audit.list({
        ...filter,
        limit: PAGE,
        ...(pageParam === null ? {} : { before: pageParam }),
      }),
    initialPageParam: null as number | null,
    getNextPageParam: (last) => (last.more ? (last.Items.at(-1)?.id ?? null) : null),
  });
  const download = useMutation({
    mutationFn: () => gateway.audit.exportCsv(filter),
    onSuccess: ({ csv }) => {
      const url = URL.createObjectURL(new Blob([csv], { type: 'text/csv;charset=utf-8' }));
      const link = document.createElement('a');
      link.href = url;
      link.download = `audit-${new Date().toISOString().slice(0, 10)}.csv`;
      link.click();
      URL.revokeObjectURL(url);
    },
  });
  const rows = events.data?.pages.flatMap((page) => page.Items) ?? [];

  return (
    <>
      <div className="toolbar">
        <div className="field">
          <label htmlFor={actionId}>{t('admin.audit.action')}</label>
          <select
            id={actionId}
            value={action}
            onChange={(e) => setAction(e.target.value as AuditAction | '')}
          >
            <option value="">{t('admin.audit.anyAction')}</option>
            {AUDIT_ACTIONS.map((name) => (
              <option key={name} value={name}>
                {t(`admin.audit.actions.${name}`)}
              </option>
            ))}
          </select>
        </div>
        <Input label={t('admin.audit.actor')} value={actor} maxLength={100} onChange={setActor} />
        <DateField label={t('admin.audit.from')} value={from} onChange={setFrom} clearable />
        <DateField label={t('admin.audit.to')} value={to} onChange={setTo} clearable />
        <Button type="button" onClick={() => download.mutate()} disabled={download.isPending}>
          {t('admin.audit.export')}
        </Button>
      </div>
      {download.error != null && <p className="error-text">{t('admin.audit.exportFailed')}</p>}
      {download.data && (
        <p role="status">{t('admin.audit.exported', { count: download.data.rows })}</p>
      )}
      {events.isPending && <Spinner />}
      {events.error != null && <p className="error-text">{t('admin.audit.loadFailed')}</p>}
      {events.data &&
        (rows.length === 0 ? (
          <p>{t('admin.audit.none')}</p>
        ) : (
          <Table caption={t('admin.audit.title')}>
            <thead>
              <tr>
                <th scope="col">{t('admin.audit.when')}</th>
                <th scope="col">{t('admin.audit.who')}</th>
                <th scope="col">{t('admin.audit.action')}</th>
                <th scope="col">{t('admin.audit.target')}</th>
                <th scope="col">{t('admin.audit.detail')}</th>
                <th scope="col">{t('admin.audit.address')}</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((event) => (
                <tr key={event.id}>
                  <td>{fmt.dateTime(event.at)}</td>
                  <td>
                    {event.actorName}
                    <br />
                    <small>{event.actorPhone}</small>
                    {event.tokenId && (
                      <>
                        <br />
                        <small>{t('admin.audit.viaToken', { id: event.tokenId })}</small>
                      </>
                    )}
                  </td>
                  <td>{t(`admin.audit.actions.${event.action}`)}</td>
                  <td>
                    <code>{event.target ?? ''}</code>
                  </td>
                  <td>
                    <code className="audit-detail">{JSON.stringify(event.detail)}</code>
                  </td>
                  <td>{event.ip ?? ''}</td>
                </tr>
              ))}
            </tbody>
          </Table>
        ))}
      {events.hasNextPage && (
        <Button
          type="button"
          onClick={() => events.fetchNextPage()}
          disabled={events.isFetchingNextPage}
        >
          {t('admin.audit.older')}
        </Button>
      )}
    </>
  );
}
