// /flex/settings: the filters the block catcher applies, in one form of four sections
// (Warehouses, Pay, Schedule, Alerts) with a live estimate of what the edited filters would have
// caught. A save bar appears once something differs from what is saved; saving keeps the driver
// here. A driver who never saved starts from defaults that save as they are.
import {
  type AlertSettings,
  HttpError,
  localTimeZone,
  nextRouteForUser,
  type SavedDriverFilters,
} from '@blockcatch/sdk';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { FormAlert } from '../../components/FormAlert.js';
import { LoadingOverlay } from '../../components/LoadingOverlay.js';
import { Checkbox } from '../../components/ui/Checkbox.js';
import { Input } from '../../components/ui/Input.js';
import { useToast } from '../../components/ui/Toast.js';
import { useAuth } from '../../hooks/useAuth.js';
import { errorMessage } from '../../lib/errorMessage.js';
import { driverQueries, platformQueries } from '../../lib/queries.js';
import { gateway } from '../../sdk.js';
import { AlertFields } from './AlertFields.js';
import { CapsAndChoices } from './CapsAndChoices.js';
import { FilterPreview } from './FilterPreview.js';
import { FiltersSection } from './FiltersSection.js';
import {
  type Draft,
  type DraftError,
  draftErrors,
  draftFromSaved,
  EMPTY_STATION,
  filtersFromDraft,
  newDriverDraft,
  ownRule,
  PAY_RULES,
  type PayRule,
  windowsValid,
} from './filterDraft.js';
import { MarketingSettings } from './MarketingSettings.js';
import { PayRuleFields } from './PayRuleFields.js';
import { filterQueries } from './queries.js';
import { SaveBar } from './SaveBar.js';
import { StationInsight } from './StationInsight.js';
import { StationOverride } from './StationOverride.js';
import { WeeklyScheduleEditor } from './WeeklyScheduleEditor.js';

const ERROR_KEYS: Record<DraftError, string> = {
  'required-number': 'flex.settings.requiredNumber',
  'optional-number': 'flex.settings.optionalNumber',
  hours: 'flex.settings.blockHoursRange',
  'max-under-min': 'flex.settings.maxUnderMin',
};

/** What the form holds: the filters and the alerts, saved together. */
interface FormState {
  draft: Draft;
  alerts: AlertSettings;
}

const sameForm = (a: FormState, b: FormState) => JSON.stringify(a) === JSON.stringify(b);

export default function SettingsPage() {
  const areasQuery = useQuery(platformQueries.serviceAreas());
  const savedQuery = useQuery(filterQueries.settings());
  const alertsQuery = useQuery(filterQueries.alerts());
  const { t } = useTranslation();
  if (areasQuery.isPending || savedQuery.isPending || alertsQuery.isPending) {
    return <LoadingOverlay />;
  }
  if (!areasQuery.data || savedQuery.isError || !alertsQuery.data) {
    return (
      <main className="page narrow">
        <h1>{t('flex.settings.title')}</h1>
        <p role="alert">{t('errors.fetchFailed')}</p>
      </main>
    );
  }
  return (
    <FiltersForm areas={areasQuery.data} saved={savedQuery.data} savedAlerts={alertsQuery.data} />
  );
}

function FiltersForm({
  areas,
  saved,
  savedAlerts,
}: {
  areas: { id: string; name: string; timeZone: string }[];
  saved: SavedDriverFilters | null;
  savedAlerts: AlertSettings;
}) {
  const { t } = useTranslation();
  const { state, refresh } = useAuth();
  const { show } = useToast();
  const queryClient = useQueryClient();
  const initial = (): FormState => ({
    draft: saved ? draftFromSaved(saved) : newDriverDraft(areas, localTimeZone()),
    alerts: savedAlerts,
  });
  // What is saved (null until the first save), and what the form holds now.
  const [baseline, setBaseline] = useState<FormState | null>(() => (saved ? initial() : null));
  const [form, setForm] = useState<FormState>(initial);
  const [alert, setAlert] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [checked, setChecked] = useState(false);
  const [serverNoWarehouse, setServerNoWarehouse] = useState(false);
  const { draft } = form;

  const baselineRef = useRef(baseline);
  baselineRef.current = baseline;
  // Filters read again (after a save, or saved elsewhere) replace the form unless it was edited.
  useEffect(() => {
    if (!saved) return;
    const fresh: FormState = { draft: draftFromSaved(saved), alerts: savedAlerts };
    const before = baselineRef.current;
    setForm((now) => (before && !sameForm(now, before) ? now : fresh));
    setBaseline(fresh);
  }, [saved, savedAlerts]);

  const dirty = baseline === null || !sameForm(form, baseline);
  const setDraft = (change: (d: Draft) => Draft) =>
    setForm((f) => ({ ...f, draft: change(f.draft) }));

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
  const general = Object.fromEntries(PAY_RULES.map((r) => [r, draft[r]])) as Record<
    PayRule,
    string
  >;
  const chosen = areas.filter((area) => draft.warehouses.includes(area.id));
  // Once filters are saved, a driver who has not paid yet goes on to payment from here.
  const nextStep =
    state.status === 'signed-in' && baseline !== null
      ? nextRouteForUser({ phoneVerified: state.session.phoneNumberVerified, user: state.user })
      : null;

  const toggleWarehouse = (id: string, on: boolean) =>
    setDraft((d) => ({
      ...d,
      warehouses: on ? [...d.warehouses, id] : d.warehouses.filter((w) => w !== id),
    }));
  const setStation = (id: string, field: PayRule, value: string) =>
    setDraft((d) => ({
      ...d,
      stationRules: {
        ...d.stationRules,
        [id]: { ...(ownRule(d, id) ?? EMPTY_STATION), [field]: value },
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
    const submitted = form;
    try {
      const filtersChanged =
        baseline === null || JSON.stringify(submitted.draft) !== JSON.stringify(baseline.draft);
      if (filtersChanged) await gateway.driver.saveSettings(filters);
      if (JSON.stringify(submitted.alerts) !== JSON.stringify(savedAlerts)) {
        const answer = await gateway.driver.saveAlertSettings(submitted.alerts);
        queryClient.setQueryData(filterQueries.alerts().queryKey, answer);
      }
      setBaseline(submitted);
      setChecked(false);
      show('success', t('flex.settings.saved'));
      if (filtersChanged) {
        await queryClient.invalidateQueries({ queryKey: driverQueries.all });
        await refresh();
      }
    } catch (error) {
      if (error instanceof HttpError && error.serverCode === 'no_warehouse') {
        setServerNoWarehouse(true);
      } else {
        setAlert(errorMessage(t, error, t('errors.couldNotConfigureSchedule')));
      }
    } finally {
      setBusy(false);
    }
  };

  return (
    <main className="page">
      <h1>{t('flex.settings.title')}</h1>
      {baseline === null && <p className="notice">{t('flex.settings.newDriverHint')}</p>}
      {nextStep === '/payment' && !dirty && (
        <p className="notice next-step">
          {t('flex.settings.nextPayment')} <Link to="/payment">{t('flex.settings.toPayment')}</Link>
        </p>
      )}
      <form className="form settings-form" onSubmit={onSubmit} noValidate>
        <FiltersSection id="warehouses" title={t('flex.settings.warehouses')}>
          <fieldset
            className="warehouses"
            aria-describedby={noWarehouse ? 'warehouses-error' : undefined}
          >
            <legend className="visually-hidden">{t('flex.settings.warehouses')}</legend>
            <div className="toggle-grid">
              {areas.map((area) => (
                <Checkbox
                  key={area.id}
                  id={`warehouse-${area.id}`}
                  labelClassName="toggle-tile"
                  label={
                    <span className="tile-text">
                      <span>{area.name}</span>
                      {/* The code, unless the name already says it. */}
                      {!area.name.includes(area.id) && <span className="tile-code">{area.id}</span>}
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
            stations={chosen.map((a) => ({
              ...a,
              minHourlyPay:
                Number(ownRule(draft, a.id)?.minHourlyPay || draft.minHourlyPay) || null,
            }))}
          />
        </FiltersSection>

        <FiltersSection id="pay" title={t('flex.settings.pay')}>
          <PayRuleFields
            values={general}
            onChange={(rule, value) => setDraft((d) => ({ ...d, [rule]: value }))}
            errorFor={errorFor}
          />
          <div className="field-row">
            {(['minBlockHours', 'maxBlockHours'] as const).map((field) => (
              <Input
                key={field}
                label={t(`flex.settings.${field}`)}
                type="number"
                min={0}
                max={24}
                step="0.25"
                inputMode="decimal"
                suffix={t('flex.settings.hoursUnit')}
                placeholder={t('flex.settings.anyLength')}
                error={errorFor(field)}
                value={draft[field]}
                onChange={(v) => setDraft((d) => ({ ...d, [field]: v }))}
              />
            ))}
          </div>
          <CapsAndChoices
            value={draft.caps}
            onChange={(caps) => setDraft((d) => ({ ...d, caps }))}
          />
          {chosen.length > 0 && (
            <div className="station-rules">
              <h3>{t('flex.settings.stationRules')}</h3>
              <p className="muted">{t('flex.settings.stationRulesHint')}</p>
              {chosen.map((area) => (
                <StationOverride
                  key={area.id}
                  station={area}
                  rule={ownRule(draft, area.id) ?? EMPTY_STATION}
                  general={general}
                  onChange={(field, value) => setStation(area.id, field, value)}
                  errorFor={(field) => errorFor(`stationRules.${area.id}.${field}`)}
                />
              ))}
            </div>
          )}
        </FiltersSection>

        <FiltersSection id="schedule" title={t('flex.settings.schedule')}>
          <WeeklyScheduleEditor
            value={draft.weeklySchedule}
            onChange={(weeklySchedule) => setDraft((d) => ({ ...d, weeklySchedule }))}
          />
          <FilterPreview filters={filters} />
        </FiltersSection>

        <FiltersSection id="alerts" title={t('flex.alerts.title')} hint={t('flex.alerts.intro')}>
          <AlertFields
            value={form.alerts}
            onChange={(alerts) => setForm((f) => ({ ...f, alerts }))}
          />
        </FiltersSection>

        <FormAlert text={alert} />
        {dirty && (
          <SaveBar
            busy={busy}
            firstSave={baseline === null}
            onDiscard={() => {
              if (baseline) setForm(baseline);
              setChecked(false);
              setAlert(null);
            }}
          />
        )}
      </form>
      <MarketingSettings />
    </main>
  );
}
