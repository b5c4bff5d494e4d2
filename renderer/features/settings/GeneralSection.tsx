import { FolderOpen, Users } from 'lucide-react';
import { CopyButton } from '../../components/CopyButton';
import { useSettings } from '../../store/settings-store';
import { useStudio } from '../../store/studio-store';
import { ThemeChoices } from '../theme/ThemeChoices';

/** Who the studio calls as, the theme (a preference of this browser or window), the data folder and sessions. */
export function GeneralSection() {
  const whoami = useSettings((s) => s.whoami);
  const view = useSettings((s) => s.view);
  return (
    <div className="settings-section" data-testid="settings-general">
      <h3 className="section-title">Signed in as</h3>
      <p data-testid="settings-whoami">
        {whoami ? (
          <>
            <strong>{whoami.role}</strong> <code>{whoami.actor}</code>
            {whoami.sessions && ` · sessions ${whoami.sessions.join(', ')}`}
          </>
        ) : (
          'The host did not say who this studio is (an older server).'
        )}
      </p>
      <h3 className="section-title">Theme</h3>
      <ThemeChoices />
      <p className="field-hint">Kept in this browser or window; System follows the operating system’s light or dark mode.</p>
      <h3 className="section-title">Data folder</h3>
      {view?.dataDir ? (
        <p className="settings-path">
          <FolderOpen size={14} aria-hidden="true" />
          <code data-testid="settings-data-dir">{view.dataDir}</code>
          <CopyButton text={() => view.dataDir ?? ''} testId="settings-data-dir-copy" title="Copy the folder's path" />
        </p>
      ) : (
        <p className="field-hint" data-testid="settings-data-dir">
          No data folder: this host keeps everything in memory.
        </p>
      )}
      <p className="field-hint">
        Workflows and their versions, the execution log, API keys, secrets (encrypted) and <code>{view?.file ?? 'settings.json'}</code>. Another folder: start
        with <code>--data DIR</code> or <code>YUKTA_DATA_DIR</code>.
      </p>
      <h3 className="section-title">Sessions</h3>
      <p className="settings-path">
        <button type="button" className="button small" onClick={() => useStudio.getState().openDialog('sessions')} data-testid="settings-open-sessions">
          <Users size={13} aria-hidden="true" /> Manage sessions…
        </button>
        <span className="field-hint">Create, rename and delete sessions (each holds its own workflows).</span>
      </p>
    </div>
  );
}
