import { PanelLeftClose, PanelLeftOpen, PanelRightClose, PanelRightOpen } from 'lucide-react';
import type { ReactNode } from 'react';
import { useStudio } from '../store/studio-store';

/** A side panel that collapses to a slim rail; its open state lives in the UI slice. */
export function CollapsiblePanel({ panel, title, children }: { panel: 'palette' | 'inspector'; title: string; children: ReactNode }) {
  const open = useStudio((s) => (panel === 'palette' ? s.paletteOpen : s.inspectorOpen));
  const toggle = useStudio((s) => s.togglePanel);
  const left = panel === 'palette';
  const Icon = open ? (left ? PanelLeftClose : PanelRightClose) : left ? PanelLeftOpen : PanelRightOpen;
  const button = (
    <button
      type="button"
      className="icon-button panel-toggle"
      onClick={() => toggle(panel)}
      aria-expanded={open}
      aria-label={`${open ? 'Collapse' : 'Expand'} ${title.toLowerCase()}`}
      title={`${open ? 'Collapse' : 'Expand'} ${title.toLowerCase()}`}
      data-testid={`${panel}-toggle`}
    >
      <Icon size={15} aria-hidden="true" />
    </button>
  );
  if (!open) return <aside className={`panel panel-rail ${panel}`}>{button}</aside>;
  return (
    <div className={`panel-frame ${panel}`}>
      <div className="panel-header">
        <span>{title}</span>
        {button}
      </div>
      {children}
    </div>
  );
}
