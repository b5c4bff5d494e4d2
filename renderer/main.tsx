import '@xyflow/react/dist/style.css';
import './styles/app.css';
import './styles/debugger.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { clientFor, currentTarget, targetLabel } from './api/server-target';
import { App } from './App';
import { browserSessionStorage, createCredentials } from './api/credentials';
import { withStartupPrefetch } from './api/startup-prefetch';
import { installTheme } from './features/theme/theme-store';
import { findDesktopBridge } from './desktop/desktop-bridge';
import { finishPendingConnect } from './features/connect/connect-actions';
import { useServerTarget } from './features/connect/connect-store';
import { useStudio } from './store/studio-store';
import { parseWorkflowHash } from './features/workflow/hash-route';
import { SignInGate } from './features/sign-in/SignInGate';

/** Which host first (the desktop's choice, or this tab's team server, else local: STU-08), then the studio on it. */
async function start(): Promise<void> {
  const refusal = await finishPendingConnect({ storage: window.sessionStorage, fetch: (i, init) => fetch(i, init) }, window.location.search);
  const target = await currentTarget(findDesktopBridge(), window.sessionStorage, window.location.search);
  useServerTarget.setState({ target, refusal });
  if (refusal) useStudio.getState().openDialog('connect-server');
  const credentials = createCredentials(browserSessionStorage());
  const created = clientFor(target, globalThis, credentials);
  const client = withStartupPrefetch(created.client, parseWorkflowHash(window.location.hash));
  document.documentElement.dataset['transport'] = created.kind;
  document.documentElement.dataset['host'] = target.kind;
  installTheme();
  // The window (desktop) or tab says which host it is on.
  if (target.kind === 'remote') document.title = `Yukta Studio — ${targetLabel(target)}`;
  const root = document.getElementById('root');
  if (!root) throw new Error('index.html has no #root element');
  createRoot(root).render(
    <StrictMode>
      {created.kind === 'ipc' || target.kind === 'remote' ? (
        <App client={client} />
      ) : (
        // A browser studio may need an API key first (SEC-01); reads started before it was given were refused.
        <SignInGate client={created.client} credentials={credentials}>
          {(prompted) => <App client={prompted ? created.client : client} />}
        </SignInGate>
      )}
    </StrictMode>,
  );
}

void start();
