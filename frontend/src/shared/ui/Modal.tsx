import { useEffect, useId, useRef, type ReactNode } from 'react';

interface ModalProps {
  title: string;
  children: ReactNode;
  /** The action buttons. */
  actions: ReactNode;
  /** Called on Escape; omit for a modal that must be answered. */
  onDismiss?: () => void;
  /**
   * Where focus lands on opening. 'action' (default): the first button, for a short question.
   * 'heading': the title, for a long text read from its start (the dialog opens scrolled to the top).
   */
  initialFocus?: 'action' | 'heading';
}

/** An accessible dialog: focus moves into it, Tab stays inside, Escape dismisses when allowed. */
export function Modal({ title, children, actions, onDismiss, initialFocus = 'action' }: ModalProps) {
  const titleId = useId();
  const ref = useRef<HTMLDivElement>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    const previous = document.activeElement as HTMLElement | null;
    const focusable = () =>
      Array.from(dialog.querySelectorAll<HTMLElement>('button:not([disabled]), a[href], input, [tabindex]:not([tabindex="-1"])'));
    if (initialFocus === 'heading' && headingRef.current) {
      headingRef.current.focus({ preventScroll: true });
      dialog.scrollTop = 0;
    } else {
      (focusable()[0] ?? dialog).focus();
    }
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape' && onDismiss) onDismiss();
      if (e.key !== 'Tab') return;
      const items = focusable();
      const first = items[0];
      const last = items[items.length - 1];
      if (!first || !last) return;
      const active = document.activeElement;
      const onItem = active instanceof HTMLElement && items.includes(active);
      if (e.shiftKey && (active === first || !onItem)) {
        e.preventDefault();
        last.focus();
      } else if (!e.shiftKey && (active === last || !onItem)) {
        e.preventDefault();
        first.focus();
      }
    };
    document.addEventListener('keydown', onKey);
    document.body.classList.add('modal-open');
    return () => {
      document.removeEventListener('keydown', onKey);
      document.body.classList.remove('modal-open');
      previous?.focus();
    };
  }, [onDismiss, initialFocus]);

  return (
    <div className="modal-backdrop">
      <div className="modal" role="dialog" aria-modal="true" aria-labelledby={titleId} ref={ref} tabIndex={-1}>
        <h2 id={titleId} className="modal-title" tabIndex={-1} ref={headingRef}>
          {title}
        </h2>
        <div className="modal-body">{children}</div>
        <div className="modal-actions">{actions}</div>
      </div>
    </div>
  );
}
