import { Dialog } from '../../components/Dialog';
import { useStudio } from '../../store/studio-store';
import { SHORTCUTS } from './shortcuts';

const IS_MAC = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform);

/** `?`: every keyboard shortcut of the studio, grouped (UI.md). */
export function ShortcutsDialog() {
  const close = () => useStudio.getState().openDialog(null);
  return (
    <Dialog title="Keyboard shortcuts" onClose={close} testId="shortcuts-dialog" className="shortcuts-dialog">
      {SHORTCUTS.map((group) => (
        <section key={group.group} className="shortcut-group">
          <h3>{group.group}</h3>
          <dl>
            {group.items.map((item) => (
              <div className="shortcut-row" key={item.action}>
                <dt>
                  {item.keys.map((k, i) => (
                    <span key={i}>
                      {i > 0 && '+'}
                      <kbd>{IS_MAC && k === 'Ctrl' ? '⌘' : k}</kbd>
                    </span>
                  ))}
                </dt>
                <dd>{item.action}</dd>
              </div>
            ))}
          </dl>
        </section>
      ))}
      <div className="dialog-actions">
        <button type="button" className="button" onClick={close} data-testid="shortcuts-close">
          Close
        </button>
      </div>
    </Dialog>
  );
}
