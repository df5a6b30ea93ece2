// "What would I have caught?" on the Filters page: while the driver edits, and before saving,
// what the edited filters would have won over the last 7 days compared with the saved ones. Asked
// half a second after the last change, and always called an estimate.
import type { DriverFilters } from '@blockcatch/sdk';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useFormat } from '../../hooks/useFormat.js';
import { gateway } from '../../sdk.js';

const DEBOUNCE_MS = 500;

export function FilterPreview({ filters }: { filters: DriverFilters | null }) {
  const { t } = useTranslation();
  const fmt = useFormat();
  const key = filters === null ? null : JSON.stringify(filters);
  const [settled, setSettled] = useState(key);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(key), DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [key]);
  const query = useQuery({
    queryKey: ['driver', 'settings-preview', settled],
    queryFn: () => gateway.driver.previewSettings(JSON.parse(settled!) as DriverFilters),
    enabled: settled !== null,
    placeholderData: keepPreviousData,
    staleTime: 60_000,
  });
  const preview = query.data;
  let text: string | null = null;
  if (filters === null) text = t('flex.settings.preview.fixFields');
  else if (preview === undefined) text = query.isError ? t('flex.settings.preview.failed') : null;
  else if (preview.offersConsidered === 0) text = t('flex.settings.preview.noOffers');
  else if (preview.deltaBlocks > 0) {
    text = t('flex.settings.preview.more', {
      count: preview.deltaBlocks,
      pay: fmt.money(preview.deltaPay),
    });
  } else if (preview.deltaBlocks < 0) {
    text = t('flex.settings.preview.fewer', {
      count: -preview.deltaBlocks,
      pay: fmt.money(-preview.deltaPay),
    });
  } else {
    text = t('flex.settings.preview.same', {
      count: preview.proposed.blocks,
      pay: fmt.money(preview.proposed.pay),
    });
  }
  return (
    <p className="filter-preview" aria-live="polite" data-testid="filter-preview">
      {text}
    </p>
  );
}
