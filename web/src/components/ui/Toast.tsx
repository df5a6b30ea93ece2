// Toasts of the design system (styles in ui.css): short messages that close by themselves after
// 5 seconds. The provider sits once around the app; useToast shows one from anywhere inside it.
import { createContext, type ReactNode, useCallback, useContext, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';

const TOAST_DURATION_MS = 5000;

export interface Toast {
  id: number;
  kind: 'info' | 'success' | 'error';
  text: string;
}

type Show = (kind: Toast['kind'], text: string) => number;
const ToastContext = createContext<{ show: Show; dismiss(id: number): void } | null>(null);

export function ToastProvider({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const [toasts, setToasts] = useState<Toast[]>([]);
  const next = useRef(1);
  const dismiss = useCallback(
    (id: number) => setToasts((all) => all.filter((t) => t.id !== id)),
    [],
  );
  const show = useCallback<Show>(
    (kind, text) => {
      const id = next.current++;
      setToasts((all) => [...all, { id, kind, text }]);
      setTimeout(() => dismiss(id), TOAST_DURATION_MS);
      return id;
    },
    [dismiss],
  );
  return (
    <ToastContext.Provider value={{ show, dismiss }}>
      {children}
      <div className="toasts" role="status" aria-live="polite">
        {toasts.map((toast) => (
          <div key={toast.id} className={`toast toast-${toast.kind}`}>
            <span className="toast-text">{toast.text}</span>
            <button type="button" onClick={() => dismiss(toast.id)} aria-label={t('common.close')}>
              ×
            </button>
          </div>
        ))}
      </div>
    </ToastContext.Provider>
  );
}

export function useToast() {
  const value = useContext(ToastContext);
  if (!value) throw new Error('useToast needs <ToastProvider> above it');
  return value;
}
