// The owner's switch on a user's page: make this Flex user an admin, or take admin away. Whether
// they are one comes from the list of admins (owners only); an owner's own role is not changed here.
import type { FlexUser } from '@blockcatch/sdk';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Button } from '../../components/ui/Button.js';
import { errorMessage } from '../../lib/errorMessage.js';
import { gateway } from '../../sdk.js';
import { userQueries } from './queries.js';

export function AdminRoleControl({ user }: { user: FlexUser }) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const admins = useQuery(userQueries.admins());
  const change = useMutation({
    mutationFn: (admin: boolean) => gateway.admin.setAdmin(user.phoneNumber, admin),
    // The admins list feeds this switch and the Approvals page's approvers.
    onSuccess: async () => {
      await client.invalidateQueries({ queryKey: userQueries.admins().queryKey });
      await client.invalidateQueries({ queryKey: ['admin', 'approvals'] });
    },
  });
  if (!admins.data) return null;
  const current = admins.data.find((a) => a.phoneNumber === user.phoneNumber);
  if (current?.owner) return <p>{t('admin.users.ownerRole')}</p>;
  const isAdmin = current !== undefined;
  return (
    <div className="actions">
      <Button busy={change.isPending} onClick={() => change.mutate(!isAdmin)}>
        {isAdmin ? t('admin.users.removeAdmin') : t('admin.users.makeAdmin')}
      </Button>
      {change.isSuccess && (
        <p role="status">
          {t(change.data.admin ? 'admin.users.madeAdmin' : 'admin.users.removedAdmin', {
            name: change.data.name,
          })}
        </p>
      )}
      {change.error != null && (
        <p className="error-text">{errorMessage(t, change.error, t('admin.users.roleFailed'))}</p>
      )}
    </div>
  );
}
