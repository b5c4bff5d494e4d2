import { create } from 'zustand';
import { Dialog } from './Dialog';

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

/** Renders the pending confirmation, if any (mounted once in the app). */
export function ConfirmHost() {
  const request = useConfirm((s) => s.request);
  if (!request) return null;
  const answer = (ok: boolean) => {
    useConfirm.setState({ request: null });
    request.resolve(ok);
  };
  return (
    <Dialog title={request.title} onClose={() => answer(false)} testId="confirm-dialog">
      <p className="dialog-message">{request.message}</p>
      <div className="dialog-actions">
        <button type="button" className="button" onClick={() => answer(false)} data-testid="confirm-cancel" data-autofocus>
          Cancel
        </button>
        <button type="button" className={`button ${request.danger ? 'danger' : 'primary'}`} onClick={() => answer(true)} data-testid="confirm-ok">
          {request.confirmLabel}
        </button>
      </div>
    </Dialog>
  );
}
