// The review tables' search box: name, phone, region or referral (searchRecipients).
import { useId } from 'react';
import { useTranslation } from 'react-i18next';

export function SearchBox({ value, onChange }: { value: string; onChange(value: string): void }) {
  const { t } = useTranslation();
  const id = useId();
  return (
    <div className="field search-box">
      <label htmlFor={id} className="visually-hidden">
        {t('common.search')}
      </label>
      <input
        id={id}
        type="search"
        value={value}
        placeholder={t('admin.userTable.searchUser')}
        onChange={(e) => onChange(e.target.value)}
      />
    </div>
  );
}
