import type { SettingEntry } from '../../../shared/api/settings.schema';
import { findDesktopBridge } from '../../desktop/desktop-bridge';
import { useServerTarget } from '../connect/connect-store';
import { SettingRow } from './SettingRow';
import type { Refusal } from './SettingsList';
import type { SettingsActions } from './settings-actions';

const HTTP_KEYS = ['yukta.http.enabled', 'yukta.http.port', 'yukta.http.cors-origins'];
/** In a browser the studio is itself a client of the HTTP API, which `yukta serve` always serves. */
const SERVED_ALWAYS = 'yukta serve always serves the HTTP API (this studio is using it now): this switch is for the desktop app.';

/**
 * The HTTP API (SEC-01): in the desktop app, on/off and port (at the next start); in a browser, where it is
 * served and the same settings, the switch disabled with the reason.
 */
export function HttpApiSection({ entries, actions, refusal }: { entries: SettingEntry[]; actions: SettingsActions; refusal: Refusal }) {
  const target = useServerTarget((s) => s.target);
  const desktopLocal = findDesktopBridge() !== null && target.kind === 'local';
  const rows = HTTP_KEYS.map((key) => entries.find((e) => e.key === key)).filter((e): e is SettingEntry => e !== undefined);
  const enabled = rows.find((e) => e.key === 'yukta.http.enabled');
  const port = rows.find((e) => e.key === 'yukta.http.port');
  return (
    <div className="settings-section" data-testid="settings-http">
      <p className="dialog-message" data-testid="settings-http-state">
        {desktopLocal
          ? enabled?.value === true
            ? `The HTTP API is on at http://127.0.0.1:${port?.shown ?? '4310'} (REST, the event stream and MCP at /mcp).`
            : 'The HTTP API is off: only this window talks to the local host. Turn it on to reach it with curl, the CLI or an MCP client.'
          : `This studio talks to its host over the HTTP API at ${window.location.origin}.`}
      </p>
      {rows.map((entry) => (
        <SettingRow
          key={entry.key}
          entry={entry}
          actions={actions}
          disabled={refusal(entry) ?? (entry.key === 'yukta.http.enabled' && !desktopLocal ? SERVED_ALWAYS : null)}
        />
      ))}
    </div>
  );
}
