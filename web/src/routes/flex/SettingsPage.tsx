// /flex/settings: the filters the block catcher applies: warehouses, pay, time buffer, schedule.
import { type DriverFilters, HttpError, localTimeZone } from '@blockcatch/sdk';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { AlertSettings } from '../../components/driver/AlertSettings.js';
import { FormAlert } from '../../components/FormAlert.js';
import { LoadingOverlay } from '../../components/LoadingOverlay.js';
import { TextField } from '../../components/TextField.js';
import { defaultSchedule, WeeklyScheduleEditor } from '../../components/WeeklyScheduleEditor.js';
import { errorMessage } from '../../hooks/errorMessage.js';
import { driverQueries, platformQueries } from '../../hooks/queries.js';
import { useAuth } from '../../hooks/useAuth.js';
import { useToast } from '../../hooks/useToast.js';
import { gateway } from '../../sdk.js';

interface Draft {
  warehouses: string[];
  minHourlyPay: string;
  minBlockPay: string;
  timeBufferMinutes: string;
  weeklySchedule: DriverFilters['weeklySchedule'];
}

const emptyDraft = (): Draft => ({
  warehouses: [],
  minHourlyPay: '',
  minBlockPay: '',
  timeBufferMinutes: '',
  weeklySchedule: defaultSchedule(),
});

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
    setDraft({
      warehouses: saved.warehouses,
      minHourlyPay: String(saved.minHourlyPay),
      minBlockPay: String(saved.minBlockPay),
      timeBufferMinutes: String(saved.timeBufferMinutes),
      weeklySchedule: saved.weeklySchedule,
    });
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

  // Field errors show once a save was tried, beside their field, and go as soon as it is fixed.
  const numberError = (value: string) =>
    checked && (value.trim() === '' || !(Number(value) >= 0))
      ? t('flex.settings.requiredNumber')
      : undefined;
  const fieldErrors = {
    warehouses:
      (checked || serverNoWarehouse) && draft.warehouses.length === 0
        ? t('errors.atLeastOneWarehouse')
        : undefined,
    minHourlyPay: numberError(draft.minHourlyPay),
    minBlockPay: numberError(draft.minBlockPay),
    timeBufferMinutes: numberError(draft.timeBufferMinutes),
  };

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setAlert(null);
    setChecked(true);
    if (draft.warehouses.length === 0) return;
    const numbers = [draft.minHourlyPay, draft.minBlockPay, draft.timeBufferMinutes];
    if (numbers.some((n) => n.trim() === '' || !(Number(n) >= 0))) {
      return setAlert(t('errors.requiredFields'));
    }
    const firstArea = areas.find((a) => a.id === draft.warehouses[0]);
    const filters: DriverFilters = {
      warehouses: draft.warehouses,
      minHourlyPay: Number(draft.minHourlyPay),
      minBlockPay: Number(draft.minBlockPay),
      timeBufferMinutes: Math.round(Number(draft.timeBufferMinutes)),
      weeklySchedule: draft.weeklySchedule,
      // The schedule is read on the warehouse's clock: that is where the blocks start.
      timeZone: firstArea?.timeZone ?? localTimeZone(),
    };
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
          aria-describedby={fieldErrors.warehouses ? 'warehouses-error' : undefined}
        >
          <legend>{t('flex.settings.warehouses')}</legend>
          <div className="toggle-grid">
            {areas.map((area) => (
              <label key={area.id} className="toggle-tile" htmlFor={`warehouse-${area.id}`}>
                <input
                  id={`warehouse-${area.id}`}
                  type="checkbox"
                  checked={draft.warehouses.includes(area.id)}
                  onChange={(e) => toggleWarehouse(area.id, e.target.checked)}
                />
                <span className="tile-text">
                  <span>{area.name}</span>
                  <span className="tile-code">{area.id}</span>
                </span>
              </label>
            ))}
          </div>
          {fieldErrors.warehouses && (
            <p id="warehouses-error" className="field-error" role="alert">
              {fieldErrors.warehouses}
            </p>
          )}
        </fieldset>
        <div className="field-row">
          <TextField
            label={t('flex.settings.minAmountPerHour')}
            type="number"
            min={0}
            step="0.5"
            inputMode="decimal"
            prefix={t('flex.settings.dollarUnit')}
            suffix={t('flex.settings.hourlyUnit')}
            error={fieldErrors.minHourlyPay}
            value={draft.minHourlyPay}
            onChange={(v) => setDraft((d) => ({ ...d, minHourlyPay: v }))}
          />
          <TextField
            label={t('flex.settings.minBlockPayment')}
            type="number"
            min={0}
            step="0.5"
            inputMode="decimal"
            prefix={t('flex.settings.dollarUnit')}
            error={fieldErrors.minBlockPay}
            value={draft.minBlockPay}
            onChange={(v) => setDraft((d) => ({ ...d, minBlockPay: v }))}
          />
          <TextField
            label={t('flex.settings.timeBuffer')}
            type="number"
            min={0}
            step="1"
            inputMode="numeric"
            suffix={t('flex.settings.minutesUnit')}
            error={fieldErrors.timeBufferMinutes}
            value={draft.timeBufferMinutes}
            onChange={(v) => setDraft((d) => ({ ...d, timeBufferMinutes: v }))}
          />
        </div>
        <WeeklyScheduleEditor
          value={draft.weeklySchedule}
          onChange={(weeklySchedule) => setDraft((d) => ({ ...d, weeklySchedule }))}
        />
        <FormAlert text={alert} />
        <button type="submit" className="primary" disabled={busy}>
          {t('flex.settings.save')}
        </button>
      </form>
      <AlertSettings />
    </main>
  );
}
