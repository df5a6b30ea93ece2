// The Filters form's save bar: shown while something differs from what is saved, stuck to the
// bottom of the screen so a phone reaches it from anywhere in the form.
import { useTranslation } from 'react-i18next';

export function SaveBar({
  busy,
  firstSave,
  onDiscard,
}: {
  busy: boolean;
  /** Nothing is saved yet: the defaults themselves are what saving keeps. */
  firstSave: boolean;
  onDiscard(): void;
}) {
  const { t } = useTranslation();
  return (
    <section className="save-bar" aria-label={t('flex.settings.saveBar')}>
      <p className="save-bar-text">
        {firstSave ? t('flex.settings.notSavedYet') : t('flex.settings.unsaved')}
      </p>
      <div className="save-bar-actions">
        {!firstSave && (
          <button type="button" className="ghost" onClick={onDiscard} disabled={busy}>
            {t('flex.settings.discard')}
          </button>
        )}
        <button type="submit" className="primary" disabled={busy}>
          {t('flex.settings.save')}
        </button>
      </div>
    </section>
  );
}
