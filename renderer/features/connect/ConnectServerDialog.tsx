import { useMemo, useState, type FormEvent } from 'react';
import { targetLabel } from '../../api/server-target';
import { Dialog } from '../../components/Dialog';
import { findDesktopBridge } from '../../desktop/desktop-bridge';
import { useStudio } from '../../store/studio-store';
import { backToLocal, browserConnectDeps, connectToServer, type ConnectDeps } from './connect-actions';
import { useServerTarget } from './connect-store';

type FieldName = 'url' | 'apiKey';

/** The form's state: the address and key (a refusal's, when the page reopened for it), the error in place, and sending. */
function useConnectForm(deps: ConnectDeps | undefined) {
  const target = useServerTarget((s) => s.target);
  // A connection refused when the page opened for it comes back here, with its address.
  const refusal = useServerTarget((s) => s.refusal);
  const connect = useMemo(() => deps ?? browserConnectDeps(findDesktopBridge()), [deps]);
  const [url, setUrl] = useState(refusal?.url ?? (target.kind === 'remote' ? target.url : ''));
  const [apiKey, setApiKey] = useState(refusal?.apiKey ?? '');
  const [error, setError] = useState<{ field: FieldName; message: string } | null>(refusal && { field: refusal.field, message: refusal.message });
  const [busy, setBusy] = useState(false);
  const close = () => {
    useServerTarget.setState({ refusal: null });
    useStudio.getState().openDialog(null);
  };
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    const outcome = await connectToServer(url, apiKey, connect);
    setBusy(false);
    if (!outcome.ok) setError(outcome);
  };
  return { target, connect, url, setUrl, apiKey, setApiKey, error, busy, close, submit };
}

function FieldError({ field, error }: { field: FieldName; error: { field: FieldName; message: string } | null }) {
  if (error?.field !== field) return null;
  return (
    <span className="field-error" role="alert" data-testid={`connect-${field === 'url' ? 'url' : 'key'}-error`}>
      {error.message}
    </span>
  );
}

/**
 * File → Connect to server… (STU-08): the address of a team's `yukta serve` and an API key; the studio
 * reopens on that server, or says in place why it cannot (unreachable, key refused, not a Yukta server).
 * "Back to Local" returns to this machine's host.
 */
export function ConnectServerDialog({ deps }: { deps?: ConnectDeps }) {
  const { target, connect, url, setUrl, apiKey, setApiKey, error, busy, close, submit } = useConnectForm(deps);
  return (
    <Dialog title="Connect to server" onClose={close} testId="connect-dialog">
      <p className="field-hint">
        Now on <strong data-testid="connect-current">{targetLabel(target)}</strong>. The same studio, on a team&apos;s <code>yukta serve</code>: its workflows,
        runs and inbox.
      </p>
      <form onSubmit={(e) => void submit(e)}>
        <label className="field">
          <span className="field-label">Server address</span>
          <input
            value={url}
            onChange={(e) => setUrl(e.target.value)}
            placeholder="http://team-server.example:4310"
            spellCheck={false}
            data-testid="connect-url"
            data-autofocus
            aria-invalid={error?.field === 'url'}
          />
          <FieldError field="url" error={error} />
        </label>
        <label className="field">
          <span className="field-label">API key</span>
          <input
            type="password"
            value={apiKey}
            onChange={(e) => setApiKey(e.target.value)}
            autoComplete="off"
            data-testid="connect-key"
            aria-invalid={error?.field === 'apiKey'}
          />
          <span className="field-hint">{findDesktopBridge() ? 'Kept encrypted by your OS keychain.' : 'Kept for this browser tab only.'}</span>
          <FieldError field="apiKey" error={error} />
        </label>
        <div className="dialog-actions">
          {target.kind === 'remote' && (
            <button type="button" className="button" onClick={() => void backToLocal(connect)} data-testid="connect-local">
              Back to Local
            </button>
          )}
          <button type="button" className="button" onClick={close}>
            Cancel
          </button>
          <button type="submit" className="button primary" disabled={busy} data-testid="connect-submit">
            {busy ? 'Connecting…' : 'Connect'}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
