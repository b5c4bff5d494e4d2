import { useEffect, useId, useRef, type KeyboardEvent, type ReactNode } from 'react';

const FOCUSABLE = 'input:not([disabled]), select:not([disabled]), textarea:not([disabled]), button:not([disabled]), [href], [tabindex]:not([tabindex="-1"]), [contenteditable="true"]';

/**
 * A small modal dialog in our style layer (only Radix Tabs is installed): `role="dialog"`, labelled by its
 * title, focus moved inside on open and back on close, Tab kept inside, Escape and a backdrop click close.
 */
export function Dialog({
  title,
  onClose,
  children,
  testId,
  className = '',
  placement = 'centre',
}: {
  title: string;
  onClose: () => void;
  children: ReactNode;
  testId?: string;
  className?: string;
  placement?: 'centre' | 'top';
}) {
  const titleId = useId();
  const box = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    const first = box.current?.querySelector<HTMLElement>('[data-autofocus]') ?? box.current?.querySelector<HTMLElement>(FOCUSABLE);
    (first ?? box.current)?.focus();
    return () => opener?.focus();
  }, []);

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    if (e.key === 'Escape') {
      e.stopPropagation();
      onClose();
    } else if (e.key === 'Tab') {
      keepFocusInside(e, box.current);
    }
    // Keys typed in a dialog never reach the canvas shortcuts.
    e.nativeEvent.stopImmediatePropagation();
  };

  return (
    <div className={`dialog-backdrop placement-${placement}`} onMouseDown={(e) => e.target === e.currentTarget && onClose()}>
      <div ref={box} className={`dialog ${className}`} role="dialog" aria-modal="true" aria-labelledby={titleId} tabIndex={-1} onKeyDown={onKeyDown} data-testid={testId}>
        <h2 id={titleId} className="dialog-title">
          {title}
        </h2>
        {children}
      </div>
    </div>
  );
}

function keepFocusInside(e: KeyboardEvent, box: HTMLElement | null): void {
  const items = box ? [...box.querySelectorAll<HTMLElement>(FOCUSABLE)] : [];
  if (items.length === 0) return;
  const first = items[0]!;
  const last = items[items.length - 1]!;
  if (e.shiftKey && document.activeElement === first) {
    e.preventDefault();
    last.focus();
  } else if (!e.shiftKey && document.activeElement === last) {
    e.preventDefault();
    first.focus();
  }
}
