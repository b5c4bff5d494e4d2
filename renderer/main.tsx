import '@xyflow/react/dist/style.css';
import './styles/app.css';
import './styles/debugger.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createAppClient } from './api';
import { App } from './App';
import { withStartupPrefetch } from './api/startup-prefetch';
import { installTheme } from './features/theme/theme-store';
import { parseWorkflowHash } from './features/workflow/hash-route';

const created = createAppClient();
const { kind } = created;
const client = withStartupPrefetch(created.client, parseWorkflowHash(window.location.hash));
document.documentElement.dataset['transport'] = kind;
installTheme();

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');
createRoot(root).render(
  <StrictMode>
    <App client={client} />
  </StrictMode>,
);
