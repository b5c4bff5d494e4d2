import * as RadixDialog from '@radix-ui/react-dialog';
import type { KeyboardEvent, ReactNode } from 'react';

/**
 * A modal dialog on Radix (focus trap, Escape and an outside click close it, focus back to the opener,
 * `aria-labelledby` its title) in our style layer. Focus goes to the element marked `data-autofocus`, else to
 * the dialog itself, so a long dialog opens scrolled to its top.
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
  return (
    <RadixDialog.Root open onOpenChange={(open) => !open && onClose()}>
      <RadixDialog.Portal>
        <RadixDialog.Overlay className={`dialog-backdrop placement-${placement}`}>
          <RadixDialog.Content
            className={`dialog ${className}`}
            aria-describedby={undefined}
            onOpenAutoFocus={focusMarked}
            onKeyDown={keepKeysInside}
            data-testid={testId}
          >
            <RadixDialog.Title className="dialog-title">{title}</RadixDialog.Title>
            {children}
          </RadixDialog.Content>
        </RadixDialog.Overlay>
      </RadixDialog.Portal>
    </RadixDialog.Root>
  );
}

/** Radix focuses the first focusable element; ours is the marked one, else the dialog box (scrolled to the top). */
export function focusMarked(e: Event): void {
  e.preventDefault();
  const box = e.currentTarget instanceof HTMLElement ? e.currentTarget : null;
  const marked = box?.querySelector<HTMLElement>('[data-autofocus]');
  (marked ?? box)?.focus({ preventScroll: marked === null });
}

/** Keys typed in a dialog never reach the canvas shortcuts (window listeners). */
export function keepKeysInside(e: KeyboardEvent<HTMLElement>): void {
  e.nativeEvent.stopImmediatePropagation();
}
