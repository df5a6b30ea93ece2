// The weekly schedule of the filters: for each day, the windows (start and end) blocks must fit in.
// A window ending before it starts (22:00–02:00) runs into the next day, and says so.
import {
  everyDay,
  type ScheduleWindow,
  WEEKDAYS,
  type Weekday,
  type WeeklySchedule,
} from '@blockcatch/sdk';
import { useTranslation } from 'react-i18next';

const DAY_KEYS: Record<Weekday, string> = {
  mon: 'monday',
  tue: 'tuesday',
  wed: 'wednesday',
  thu: 'thursday',
  fri: 'friday',
  sat: 'saturday',
  sun: 'sunday',
};

const NEW_WINDOW: ScheduleWindow = { start: '06:00', end: '22:00' };

export function WeeklyScheduleEditor({
  value,
  onChange,
}: {
  value: WeeklySchedule;
  onChange(next: WeeklySchedule): void;
}) {
  const { t } = useTranslation();
  const setDay = (day: Weekday, windows: ScheduleWindow[]) =>
    onChange({ ...value, [day]: windows });
  return (
    <fieldset className="schedule">
      <legend className="visually-hidden">{t('flex.settings.weeklySchedule')}</legend>
      {WEEKDAYS.map((day) => {
        const dayName = t(`flex.settings.days.${DAY_KEYS[day]}`);
        const windows = value[day];
        return (
          <div key={day} className="schedule-day">
            <div className="schedule-day-head">
              <h3>{dayName}</h3>
              <div className="schedule-day-actions">
                <button type="button" onClick={() => setDay(day, [...windows, NEW_WINDOW])}>
                  {t('flex.settings.addWindow')}
                  <span className="visually-hidden"> {dayName}</span>
                </button>
                <button type="button" className="ghost" onClick={() => onChange(everyDay(windows))}>
                  {t('flex.settings.copyToAll')}
                  <span className="visually-hidden"> ({dayName})</span>
                </button>
              </div>
            </div>
            {windows.length === 0 && <p className="muted">{t('flex.settings.dayOff')}</p>}
            {windows.map((window, index) => {
              const crosses =
                window.end !== '' && window.end !== '24:00' && window.end < window.start;
              const empty = window.start === window.end || window.start === '' || window.end === '';
              const errorId = `${day}-window-${index}-error`;
              return (
                // Windows have no id of their own; their place in the day is what the driver edits.
                // biome-ignore lint/suspicious/noArrayIndexKey: see above.
                <div key={index} className="schedule-window">
                  <label>
                    <span className="visually-hidden">{t('flex.settings.startTime')}</span>
                    <input
                      type="time"
                      value={window.start}
                      aria-label={`${dayName} ${t('flex.settings.startTime')} ${index + 1}`}
                      onChange={(e) =>
                        setDay(
                          day,
                          windows.map((w, i) =>
                            i === index ? { ...w, start: e.target.value } : w,
                          ),
                        )
                      }
                    />
                  </label>
                  <span className="schedule-dash" aria-hidden="true">
                    –
                  </span>
                  <label>
                    <span className="visually-hidden">{t('flex.settings.endTime')}</span>
                    <input
                      type="time"
                      value={window.end === '24:00' ? '23:59' : window.end}
                      aria-label={`${dayName} ${t('flex.settings.endTime')} ${index + 1}`}
                      aria-invalid={empty ? true : undefined}
                      aria-describedby={empty ? errorId : undefined}
                      onChange={(e) =>
                        setDay(
                          day,
                          windows.map((w, i) => (i === index ? { ...w, end: e.target.value } : w)),
                        )
                      }
                    />
                  </label>
                  {crosses && <span className="muted next-day">{t('flex.settings.nextDay')}</span>}
                  <button
                    type="button"
                    onClick={() =>
                      setDay(
                        day,
                        windows.filter((_, i) => i !== index),
                      )
                    }
                    className="schedule-remove"
                    aria-label={`${t('flex.settings.removeWindow')} ${dayName} ${index + 1}`}
                    title={t('flex.settings.removeWindow')}
                  >
                    <span aria-hidden="true">✕</span>
                  </button>
                  {empty && (
                    <p id={errorId} className="field-error">
                      {t('flex.settings.windowSameTimes')}
                    </p>
                  )}
                </div>
              );
            })}
          </div>
        );
      })}
    </fieldset>
  );
}
