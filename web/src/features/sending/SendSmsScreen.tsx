// The Send SMS screen (owner only): a Flex or Spark audience filtered (docs/product.md, 'The admin audience filters'), the
// message, then the review. Shown inside /admin/tools.
import { type AudienceFilters, filterAudience, type Product, type UserRow } from '@blockcatch/sdk';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DateField } from '../../components/admin/DateField.js';
import { ProductSwitch } from '../../components/admin/ProductSwitch.js';
import { Spinner } from '../../components/admin/Spinner.js';
import { TriStateSelect } from '../../components/admin/TriStateSelect.js';
import { Select } from '../../components/ui/Select.js';
import { useAdminRole } from '../../hooks/admin/useAdminRole.js';
import { useReferrals, useTemplates, useUsers } from '../../hooks/admin/useAdminTables.js';
import { regionsOf } from '../../lib/admin/user-sorting.js';
import { composedFrom, MessageComposer } from './MessageComposer.js';
import { RecentSends } from './RecentSends.js';
import { ReviewStep } from './ReviewStep.js';
import { SendAtField } from './SendAtField.js';
import { SendResultLine } from './SendResultLine.js';
import { useMessagingFlow } from './useMessagingFlow.js';

const NO_FILTERS: AudienceFilters = {
  byGoodStanding: 'all',
  byProxyInstalled: 'all',
  bySetupComplete: 'all',
  byRegion: '',
  selectedReferral: '',
};

export function SendSmsScreen() {
  const { t } = useTranslation();
  const role = useAdminRole();
  const [product, setProduct] = useState<Product>('flex');
  const flow = useMessagingFlow<AudienceFilters, UserRow>(NO_FILTERS);
  const { filters, draft, setDraft, review, result, sending } = flow;
  const users = useUsers(product);
  const referrals = useReferrals(role.billingDetails);
  const templates = useTemplates(role.billingDetails).data;
  const userRows = users.data;
  const regions = useMemo(() => (userRows ? regionsOf(userRows) : []), [userRows]);
  const referralCodes = useMemo(
    () => referrals.data?.map((r) => r.referralCode) ?? [],
    [referrals],
  );
  const composed = composedFrom(draft, templates);
  const set = flow.setFilter;

  const form = (
    <form
      className="send-form"
      aria-labelledby="send-sms-heading"
      onSubmit={(e) => {
        e.preventDefault();
        if (!userRows || !composed) return;
        flow.startReview(
          filterAudience(userRows, filters, { product, billingDetails: role.billingDetails }),
          composed,
        );
      }}
    >
      <h2 id="send-sms-heading">{t('admin.sendSms.title')}</h2>
      <SendResultLine result={result} />
      <ProductSwitch value={product} onChange={setProduct} legend={t('admin.sendSms.audience')} />

      <div className="filter-grid">
        <DateField
          label={t('admin.sendSms.creationStart')}
          value={filters.startDate}
          onChange={(startDate) => set({ startDate })}
        />
        <DateField
          label={t('admin.sendSms.creationEnd')}
          value={filters.endDate}
          onChange={(endDate) => set({ endDate })}
        />
        <DateField
          label={t('admin.sendSms.expirationStart')}
          value={filters.startExpirationDate}
          onChange={(startExpirationDate) => set({ startExpirationDate })}
        />
        <DateField
          label={t('admin.sendSms.expirationEnd')}
          value={filters.endExpirationDate}
          onChange={(endExpirationDate) => set({ endExpirationDate })}
        />
        <TriStateSelect
          label={t('admin.sendSms.goodStanding')}
          value={filters.byGoodStanding ?? 'all'}
          onChange={(byGoodStanding) => set({ byGoodStanding })}
        />
        <TriStateSelect
          label={t('admin.sendSms.proxyInstalled')}
          value={filters.byProxyInstalled ?? 'all'}
          onChange={(byProxyInstalled) => set({ byProxyInstalled })}
        />
        <TriStateSelect
          label={t('admin.sendSms.setupComplete')}
          value={filters.bySetupComplete ?? 'all'}
          onChange={(bySetupComplete) => set({ bySetupComplete })}
        />
        {product === 'flex' && (
          <Select
            label={t('admin.sendSms.region')}
            anyLabel={t('admin.sendSms.allRegions')}
            value={filters.byRegion ?? ''}
            options={regions}
            onChange={(byRegion) => set({ byRegion })}
          />
        )}
        {role.billingDetails && (
          <Select
            label={t('admin.sendSms.referral')}
            anyLabel={t('admin.sendSms.allReferrals')}
            value={filters.selectedReferral ?? ''}
            options={referralCodes}
            onChange={(selectedReferral) => set({ selectedReferral })}
          />
        )}
      </div>

      <MessageComposer
        draft={draft}
        onChange={setDraft}
        templates={templates}
        whatsappAllowed={role.billingDetails}
        limitControl={role.multiSegmentSms ? 'free' : 'locked'}
      />
      <SendAtField
        value={flow.sendAtText}
        onChange={flow.setSendAtText}
        invalid={!flow.sendAtValid}
        localTime={flow.localTime}
        onLocalTime={flow.setLocalTime}
      />

      {users.status === 'pending' && <Spinner />}
      {users.status === 'error' && <p className="error-text">{t('admin.sendSms.loadFailed')}</p>}
      <div className="actions">
        <button
          type="submit"
          className="primary"
          disabled={!userRows || !composed || !flow.sendAtValid}
        >
          {t('common.review')}
        </button>
      </div>
    </form>
  );

  return (
    <>
      {review ? (
        <ReviewStep
          key={review.id}
          reviewId={review.id}
          rows={review.rows}
          composed={review.composed}
          sending={sending}
          onCancel={flow.cancelReview}
          onSend={flow.sendSelected}
          sendAt={review.sendAt}
          localTime={review.localTime}
        />
      ) : (
        form
      )}
      <RecentSends />
    </>
  );
}
