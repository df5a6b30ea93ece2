// A dialog of the design system (styles in admin.css, its only user so far): a modal yes/no
// question, on the native <dialog> so focus stays inside it while open.
import { type ReactNode, useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';

export function Dialog({
  open,
  text,
  details,
  confirmLabel,
  onConfirm,
  onCancel,
}: {
  open: boolean;
  text: string;
  /** What the yes applies to, under the question. */
  details?: ReactNode;
  confirmLabel: string;
  onConfirm(): void;
  onCancel(): void;
}) {
  const { t } = useTranslation();
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);
  return (
    <dialog
      ref={ref}
      className="confirm-dialog"
      aria-labelledby="confirm-dialog-text"
      onCancel={(e) => {
        e.preventDefault();
        onCancel();
      }}
    >
      <p id="confirm-dialog-text">{text}</p>
      {open && details}
      <div className="actions">
        <button type="button" onClick={onCancel}>
          {t('common.cancel')}
        </button>
        <button type="button" className="primary" onClick={onConfirm}>
          {confirmLabel}
        </button>
      </div>
    </dialog>
  );
}
