import './settings.css';
import * as Tabs from '@radix-ui/react-tabs';
import { useCallback, useEffect, useMemo, useState } from 'react';
import type { SettingEntry } from '../../../shared/api/settings.schema';
import { useApi } from '../../api/api-context';
import { Dialog } from '../../components/Dialog';
import { useSettings } from '../../store/settings-store';
import { useStudio } from '../../store/studio-store';
import { ApiKeysSection } from './ApiKeysSection';
import { GeneralSection } from './GeneralSection';
import { HttpApiSection } from './HttpApiSection';
import { SecretsSection } from './SecretsSection';
import { SettingsList, type Refusal } from './SettingsList';
import { createSettingsActions, roleRefusal, SECURITY_ROLE, type SettingsActions } from './settings-actions';
import { VariablesSection } from './VariablesSection';

const TABS = [
  { value: 'general', label: 'General' },
  { value: 'all', label: 'All settings' },
  { value: 'api-keys', label: 'API keys' },
  { value: 'secrets', label: 'Secrets' },
  { value: 'variables', label: 'Variables' },
  { value: 'http', label: 'HTTP API' },
] as const;
type SettingsTab = (typeof TABS)[number]['value'];

/**
 * The Settings screen (STU-07, CFG-01; gear in the app bar, Ctrl/Cmd+,): a dialog over the canvas with the
 * studio's general choices, every setting of the table grouped, API keys, secrets, variables and the HTTP
 * API. Read fresh each time it opens; what the caller's role may not change is disabled with the reason.
 */
export function SettingsDialog() {
  const api = useApi();
  const actions = useMemo(() => createSettingsActions(api), [api]);
  const [tab, setTab] = useState<SettingsTab>('general');
  const view = useSettings((s) => s.view);
  const whoami = useSettings((s) => s.whoami);
  const error = useSettings((s) => s.error);
  // Closing forgets everything read, the key shown once above all.
  useEffect(() => {
    void actions.refresh();
    return () => useSettings.getState().reset();
  }, [actions]);
  const refusal = useCallback<Refusal>((setting) => roleRefusal(whoami, setting.role), [whoami]);
  const securityRefusal = roleRefusal(whoami, SECURITY_ROLE);
  const entries = view?.settings ?? [];
  const close = () => useStudio.getState().openDialog(null);

  return (
    <Dialog title="Settings" onClose={close} testId="settings-dialog" className="settings-dialog">
      {whoami && securityRefusal && (
        <p className="settings-role-notice" role="note" data-testid="settings-role-notice">
          Signed in as {whoami.role} ({whoami.actor}): settings, keys and secrets are read-only here; changing them needs {SECURITY_ROLE}.
        </p>
      )}
      {error && (
        <p className="field-error" role="alert" data-testid="settings-error">
          {error}
        </p>
      )}
      <Tabs.Root
        className="settings-body"
        orientation="vertical"
        value={tab}
        onValueChange={(v) => setTab(TABS.find((t) => t.value === v)?.value ?? 'general')}
      >
        <Tabs.List className="settings-tabs" aria-label="Settings sections">
          {TABS.map((t) => (
            <Tabs.Trigger key={t.value} value={t.value} className="settings-tab" data-testid={`settings-tab-${t.value}`}>
              {t.label}
            </Tabs.Trigger>
          ))}
        </Tabs.List>
        <div className="settings-content">
          {!view && !error ? (
            <p className="empty-hint" data-testid="settings-loading">
              Reading the settings…
            </p>
          ) : (
            <SettingsPanes entries={entries} actions={actions} refusal={refusal} securityRefusal={securityRefusal} />
          )}
        </div>
      </Tabs.Root>
      <div className="dialog-actions">
        <span className="field-hint settings-file">{view?.file ? `Restart settings are saved to ${view.file}.` : null}</span>
        <button type="button" className="button" onClick={close} data-testid="settings-close">
          Close
        </button>
      </div>
    </Dialog>
  );
}

type PanesProps = { entries: SettingEntry[]; actions: SettingsActions; refusal: Refusal; securityRefusal: string | null };

/** One pane per tab; the table's settings are split between All settings, Variables and HTTP API. */
function SettingsPanes({ entries, actions, refusal, securityRefusal }: PanesProps) {
  return (
    <>
      <Tabs.Content value="general">
        <GeneralSection />
      </Tabs.Content>
      <Tabs.Content value="all">
        <SettingsList entries={entries} actions={actions} refusal={refusal} />
      </Tabs.Content>
      <Tabs.Content value="api-keys">
        <ApiKeysSection actions={actions} refusal={securityRefusal} />
      </Tabs.Content>
      <Tabs.Content value="secrets">
        <SecretsSection actions={actions} refusal={securityRefusal} />
      </Tabs.Content>
      <Tabs.Content value="variables">
        <VariablesSection entries={entries} actions={actions} refusal={refusal} />
      </Tabs.Content>
      <Tabs.Content value="http">
        <HttpApiSection entries={entries} actions={actions} refusal={refusal} />
      </Tabs.Content>
    </>
  );
}
