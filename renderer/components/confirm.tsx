import * as AlertDialog from '@radix-ui/react-alert-dialog';
import { create } from 'zustand';
import { keepKeysInside } from './Dialog';

/** A question the user must answer before something is lost (unsaved changes, a deletion). */
export interface ConfirmRequest {
  title: string;
  message: string;
  confirmLabel: string;
  /** Styles the confirm button as destructive. */
  danger?: boolean;
}

interface ConfirmState {
  request: (ConfirmRequest & { resolve: (ok: boolean) => void }) | null;
}

export const useConfirm = create<ConfirmState>()(() => ({ request: null }));

/** Asks in the studio's own dialog (not `window.confirm`, which blocks and cannot be styled or tested). */
export function confirmAction(request: ConfirmRequest): Promise<boolean> {
  useConfirm.getState().request?.resolve(false);
  return new Promise((resolve) => useConfirm.setState({ request: { ...request, resolve } }));
}

/** Renders the pending confirmation, if any (mounted once in the app), on Radix AlertDialog: Cancel has focus. */
export function ConfirmHost() {
  const request = useConfirm((s) => s.request);
  if (!request) return null;
  const answer = (ok: boolean) => {
    useConfirm.setState({ request: null });
    request.resolve(ok);
  };
  return (
    <AlertDialog.Root open onOpenChange={(open) => !open && answer(false)}>
      <AlertDialog.Portal>
        <AlertDialog.Overlay className="dialog-backdrop placement-centre">
          <AlertDialog.Content className="dialog" onKeyDown={keepKeysInside} data-testid="confirm-dialog">
            <AlertDialog.Title className="dialog-title">{request.title}</AlertDialog.Title>
            <AlertDialog.Description className="dialog-message">{request.message}</AlertDialog.Description>
            <div className="dialog-actions">
              <AlertDialog.Cancel className="button" onClick={() => answer(false)} data-testid="confirm-cancel">
                Cancel
              </AlertDialog.Cancel>
              <AlertDialog.Action className={`button ${request.danger ? 'danger' : 'primary'}`} onClick={() => answer(true)} data-testid="confirm-ok">
                {request.confirmLabel}
              </AlertDialog.Action>
            </div>
          </AlertDialog.Content>
        </AlertDialog.Overlay>
      </AlertDialog.Portal>
    </AlertDialog.Root>
  );
}
