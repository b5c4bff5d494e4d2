import '@xyflow/react/dist/style.css';
import './styles/app.css';
import './styles/debugger.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createAppClient } from './api';
import { App } from './App';
import { browserSessionStorage, createCredentials } from './api/credentials';
import { withStartupPrefetch } from './api/startup-prefetch';
import { SignInGate } from './features/sign-in/SignInGate';
import { parseWorkflowHash } from './features/workflow/hash-route';

const credentials = createCredentials(browserSessionStorage());
const created = createAppClient(globalThis, credentials);
const { kind } = created;
const client = withStartupPrefetch(created.client, parseWorkflowHash(window.location.hash));
document.documentElement.dataset['transport'] = kind;

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');
createRoot(root).render(
  <StrictMode>
    {kind === 'ipc' ? (
      <App client={client} />
    ) : (
      // A browser studio may need an API key first; reads started before it was given were refused.
      <SignInGate client={created.client} credentials={credentials}>
        {(prompted) => <App client={prompted ? created.client : client} />}
      </SignInGate>
    )}
  </StrictMode>,
);
