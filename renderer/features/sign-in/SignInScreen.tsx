import './sign-in.css';
import * as Dialog from '@radix-ui/react-dialog';
import { KeyRound } from 'lucide-react';
import { useState, type FormEvent } from 'react';

/**
 * The sign-in screen of a browser studio whose server needs an API key (SEC-01): one field for the key,
 * kept in this tab only. It cannot be dismissed: there is nothing to see without a key.
 */
export function SignInScreen({ message, busy, onSubmit }: { message: string | null; busy: boolean; onSubmit: (key: string) => void }) {
  const [key, setKey] = useState('');
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (key.trim()) onSubmit(key.trim());
  };
  return (
    <Dialog.Root open>
      <Dialog.Portal>
        <Dialog.Overlay className="dialog-backdrop placement-centre sign-in-backdrop" />
        <Dialog.Content
          className="dialog sign-in-dialog"
          data-testid="sign-in-dialog"
          onEscapeKeyDown={(e) => e.preventDefault()}
          onInteractOutside={(e) => e.preventDefault()}
        >
          <Dialog.Title className="dialog-title">
            <KeyRound size={15} aria-hidden="true" /> Sign in to Yukta Studio
          </Dialog.Title>
          <Dialog.Description className="dialog-message">
            This server needs an API key. It is kept in this browser tab only, until you sign out or close the tab.
          </Dialog.Description>
          <form onSubmit={submit} className="sign-in-form">
            <label className="form-group">
              <span>API key</span>
              <input
                type="password"
                autoComplete="current-password"
                value={key}
                onChange={(e) => setKey(e.target.value)}
                aria-invalid={message !== null}
                data-testid="sign-in-key"
                autoFocus
              />
            </label>
            {message && (
              <p className="field-error" role="alert" data-testid="sign-in-error">
                {message}
              </p>
            )}
            <div className="dialog-actions">
              <button type="submit" className="button primary" disabled={busy || !key.trim()} data-testid="sign-in-submit">
                {busy ? 'Signing in…' : 'Sign in'}
              </button>
            </div>
          </form>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
