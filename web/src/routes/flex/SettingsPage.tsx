// /flex/settings: the filters the block catcher applies: warehouses (each with optional minimums
// of its own), pay, time buffer, block length and schedule, with a live estimate of what the
// edited filters would have caught.
import { HttpError, localTimeZone } from '@blockcatch/sdk';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { AlertSettings } from '../../components/driver/AlertSettings.js';
import { CapsAndChoices } from '../../components/driver/CapsAndChoices.js';
import { FilterPreview } from '../../components/driver/FilterPreview.js';
import { MarketingSettings } from '../../components/driver/MarketingSettings.js';
import { StationInsight } from '../../components/driver/StationInsight.js';
import { FormAlert } from '../../components/FormAlert.js';
import { LoadingOverlay } from '../../components/LoadingOverlay.js';
import { Checkbox } from '../../components/ui/Checkbox.js';
import { Input } from '../../components/ui/Input.js';
import { useToast } from '../../components/ui/Toast.js';
import { defaultSchedule, WeeklyScheduleEditor } from '../../components/WeeklyScheduleEditor.js';
import { errorMessage } from '../../hooks/errorMessage.js';
import { driverQueries, platformQueries } from '../../hooks/queries.js';
import { useAuth } from '../../hooks/useAuth.js';
import { gateway } from '../../sdk.js';
import {
  type Draft,
  type DraftError,
  draftErrors,
  draftFromSaved,
  EMPTY_STATION,
  filtersFromDraft,
  type StationDraft,
  windowsValid,
} from './filterDraft.js';

const emptyDraft = (): Draft => ({
  warehouses: [],
  minHourlyPay: '',
  minBlockPay: '',
  timeBufferMinutes: '',
  weeklySchedule: defaultSchedule(),
  stationRules: {},
  minBlockHours: '',
  maxBlockHours: '',
});

const ERROR_KEYS: Record<DraftError, string> = {
  'required-number': 'flex.settings.requiredNumber',
  'optional-number': 'flex.settings.optionalNumber',
  hours: 'flex.settings.blockHoursRange',
  'max-under-min': 'flex.settings.maxUnderMin',
};

export default function SettingsPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { refresh } = useAuth();
  const { show } = useToast();
  const queryClient = useQueryClient();
  const areasQuery = useQuery(platformQueries.serviceAreas());
  const savedQuery = useQuery(driverQueries.settings());
  const [draft, setDraft] = useState<Draft>(emptyDraft);
  const [alert, setAlert] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [checked, setChecked] = useState(false);
  const [serverNoWarehouse, setServerNoWarehouse] = useState(false);

  useEffect(() => {
    const saved = savedQuery.data;
    if (!saved) return;
    setDraft(draftFromSaved(saved));
  }, [savedQuery.data]);

  if (areasQuery.isPending || savedQuery.isPending) return <LoadingOverlay />;
  if (!areasQuery.data || savedQuery.isError) {
    return (
      <main className="page narrow">
        <h1>{t('flex.settings.title')}</h1>
        <p role="alert">{t('errors.fetchFailed')}</p>
      </main>
    );
  }
  const areas = areasQuery.data;

  const toggleWarehouse = (id: string, on: boolean) =>
    setDraft((d) => ({
      ...d,
      warehouses: on ? [...d.warehouses, id] : d.warehouses.filter((w) => w !== id),
    }));

  // Field errors show once a save was tried (or, for a value typed wrong, at once), beside their
  // field, and go as soon as it is fixed.
  const errors = draftErrors(draft);
  const errorFor = (field: string) => {
    const error = errors[field];
    if (!error || (error === 'required-number' && !checked)) return undefined;
    return t(ERROR_KEYS[error]);
  };
  const noWarehouse =
    (checked || serverNoWarehouse) && draft.warehouses.length === 0
      ? t('errors.atLeastOneWarehouse')
      : undefined;
  // The schedule is read on the warehouse's clock: that is where the blocks start.
  const timeZone = areas.find((a) => a.id === draft.warehouses[0])?.timeZone ?? localTimeZone();
  const filters = filtersFromDraft(draft, timeZone);
  const setStation = (id: string, field: keyof StationDraft, value: string) =>
    setDraft((d) => ({
      ...d,
      stationRules: {
        ...d.stationRules,
        [id]: { ...(d.stationRules[id] ?? EMPTY_STATION), [field]: value },
      },
    }));

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setAlert(null);
    setChecked(true);
    if (draft.warehouses.length === 0) return;
    if (filters === null) {
      return setAlert(
        windowsValid(draft.weeklySchedule)
          ? t('errors.requiredFields')
          : t('flex.settings.windowSameTimes'),
      );
    }
    setBusy(true);
    try {
      await gateway.driver.saveSettings(filters);
      show('success', t('flex.settings.saved'));
      await queryClient.invalidateQueries({ queryKey: driverQueries.all });
      await refresh();
      navigate('/', { replace: true });
    } catch (error) {
      if (error instanceof HttpError && error.serverCode === 'no_warehouse') {
        setServerNoWarehouse(true);
      } else {
        setAlert(errorMessage(t, error, t('errors.couldNotConfigureSchedule')));
      }
      setBusy(false);
    }
  };

  return (
    <main className="page">
      <h1>{t('flex.settings.title')}</h1>
      <form className="form settings-form" onSubmit={onSubmit} noValidate>
        <fieldset
          className="warehouses"
          aria-describedby={noWarehouse ? 'warehouses-error' : undefined}
        >
          <legend>{t('flex.settings.warehouses')}</legend>
          <div className="toggle-grid">
            {areas.map((area) => (
              <Checkbox
                key={area.id}
                id={`warehouse-${area.id}`}
                labelClassName="toggle-tile"
                label={
                  <span className="tile-text">
                    <span>{area.name}</span>
                    <span className="tile-code">{area.id}</span>
                  </span>
                }
                checked={draft.warehouses.includes(area.id)}
                onChange={(on) => toggleWarehouse(area.id, on)}
              />
            ))}
          </div>
          {noWarehouse && (
            <p id="warehouses-error" className="field-error" role="alert">
              {noWarehouse}
            </p>
          )}
        </fieldset>
        <StationInsight
          stations={areas
            .filter((a) => draft.warehouses.includes(a.id))
            .map((a) => ({
              ...a,
              minHourlyPay:
                Number(draft.stationRules[a.id]?.minHourlyPay || draft.minHourlyPay) || null,
            }))}
        />
        <div className="field-row">
          <Input
            label={t('flex.settings.minAmountPerHour')}
            type="number"
            min={0}
            step="0.5"
            inputMode="decimal"
            prefix={t('flex.settings.dollarUnit')}
            suffix={t('flex.settings.hourlyUnit')}
            error={errorFor('minHourlyPay')}
            value={draft.minHourlyPay}
            onChange={(v) => setDraft((d) => ({ ...d, minHourlyPay: v }))}
          />
          <Input
            label={t('flex.settings.minBlockPayment')}
            type="number"
            min={0}
            step="0.5"
            inputMode="decimal"
            prefix={t('flex.settings.dollarUnit')}
            error={errorFor('minBlockPay')}
            value={draft.minBlockPay}
            onChange={(v) => setDraft((d) => ({ ...d, minBlockPay: v }))}
          />
          <Input
            label={t('flex.settings.timeBuffer')}
            type="number"
            min={0}
            step="1"
            inputMode="numeric"
            suffix={t('flex.settings.minutesUnit')}
            error={errorFor('timeBufferMinutes')}
            value={draft.timeBufferMinutes}
            onChange={(v) => setDraft((d) => ({ ...d, timeBufferMinutes: v }))}
          />
        </div>
        {draft.warehouses.length > 0 && (
          <fieldset className="station-rules">
            <legend>{t('flex.settings.stationRules')}</legend>
            <p className="muted">{t('flex.settings.stationRulesHint')}</p>
            {areas
              .filter((area) => draft.warehouses.includes(area.id))
              .map((area) => {
                const rule = draft.stationRules[area.id] ?? EMPTY_STATION;
                const field = (name: keyof StationDraft) => `stationRules.${area.id}.${name}`;
                return (
                  <div key={area.id} className="station-rule">
                    <h3>{area.name}</h3>
                    <div className="field-row">
                      <Input
                        label={`${t('flex.settings.minAmountPerHour')} (${area.id})`}
                        type="number"
                        min={0}
                        step="0.5"
                        inputMode="decimal"
                        prefix={t('flex.settings.dollarUnit')}
                        suffix={t('flex.settings.hourlyUnit')}
                        placeholder={draft.minHourlyPay}
                        error={errorFor(field('minHourlyPay'))}
                        value={rule.minHourlyPay}
                        onChange={(v) => setStation(area.id, 'minHourlyPay', v)}
                      />
                      <Input
                        label={`${t('flex.settings.minBlockPayment')} (${area.id})`}
                        type="number"
                        min={0}
                        step="0.5"
                        inputMode="decimal"
                        prefix={t('flex.settings.dollarUnit')}
                        placeholder={draft.minBlockPay}
                        error={errorFor(field('minBlockPay'))}
                        value={rule.minBlockPay}
                        onChange={(v) => setStation(area.id, 'minBlockPay', v)}
                      />
                      <Input
                        label={`${t('flex.settings.timeBuffer')} (${area.id})`}
                        type="number"
                        min={0}
                        step="1"
                        inputMode="numeric"
                        suffix={t('flex.settings.minutesUnit')}
                        placeholder={draft.timeBufferMinutes}
                        error={errorFor(field('timeBufferMinutes'))}
                        value={rule.timeBufferMinutes}
                        onChange={(v) => setStation(area.id, 'timeBufferMinutes', v)}
                      />
                    </div>
                  </div>
                );
              })}
          </fieldset>
        )}
        <div className="field-row">
          <Input
            label={t('flex.settings.minBlockHours')}
            type="number"
            min={0}
            max={24}
            step="0.25"
            inputMode="decimal"
            suffix={t('flex.settings.hoursUnit')}
            placeholder={t('flex.settings.anyLength')}
            error={errorFor('minBlockHours')}
            value={draft.minBlockHours}
            onChange={(v) => setDraft((d) => ({ ...d, minBlockHours: v }))}
          />
          <Input
            label={t('flex.settings.maxBlockHours')}
            type="number"
            min={0}
            max={24}
            step="0.25"
            inputMode="decimal"
            suffix={t('flex.settings.hoursUnit')}
            placeholder={t('flex.settings.anyLength')}
            error={errorFor('maxBlockHours')}
            value={draft.maxBlockHours}
            onChange={(v) => setDraft((d) => ({ ...d, maxBlockHours: v }))}
          />
        </div>
        <CapsAndChoices value={draft.caps} onChange={(caps) => setDraft((d) => ({ ...d, caps }))} />
        <WeeklyScheduleEditor
          value={draft.weeklySchedule}
          onChange={(weeklySchedule) => setDraft((d) => ({ ...d, weeklySchedule }))}
        />
        <FilterPreview filters={filters} />
        <FormAlert text={alert} />
        <button type="submit" className="primary" disabled={busy}>
          {t('flex.settings.save')}
        </button>
      </form>
      <AlertSettings />
      <MarketingSettings />
    </main>
  );
}
