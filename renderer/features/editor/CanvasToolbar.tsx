import { BoxSelect, Download, Keyboard, Network, Search, Upload } from 'lucide-react';
import { useReactFlow } from '@xyflow/react';
import { useRef, type ChangeEvent } from 'react';
import { useStudio } from '../../store/studio-store';
import type { FileActions } from '../workflow/file-actions';
import { CLEAR_FIT_OPTIONS } from './canvas-view';
import { autoLayout } from './editor-commands';

/** Arranging and finding: auto-layout (one undo step), box-select mode and node search. */
function ArrangeTools({ readOnly, hasNodes }: { readOnly: boolean; hasNodes: boolean }) {
  const boxSelect = useStudio((s) => s.boxSelect);
  const setBoxSelect = useStudio((s) => s.setBoxSelect);
  const openDialog = useStudio((s) => s.openDialog);
  const { fitView } = useReactFlow();
  // The laid-out graph is fitted into view once React Flow has the new positions (the frame after the edit).
  const layOut = async () => {
    if (await autoLayout()) requestAnimationFrame(() => requestAnimationFrame(() => void fitView(CLEAR_FIT_OPTIONS)));
  };
  return (
    <>
      <button
        type="button"
        className="icon-button tool"
        onClick={() => void layOut()}
        disabled={readOnly || !hasNodes}
        title="Auto-layout, left to right"
        aria-label="Auto-layout"
        data-testid="auto-layout-button"
      >
        <Network size={15} aria-hidden="true" />
      </button>
      <button
        type="button"
        className={`icon-button tool${boxSelect ? ' is-active' : ''}`}
        onClick={() => setBoxSelect(!boxSelect)}
        aria-pressed={boxSelect}
        title="Box select: drag on the canvas to select (Shift+drag works too)"
        aria-label="Box select"
        data-testid="box-select-toggle"
      >
        <BoxSelect size={15} aria-hidden="true" />
      </button>
      <button
        type="button"
        className="icon-button tool"
        onClick={() => openDialog('node-search')}
        disabled={!hasNodes && !readOnly}
        title="Jump to a node (Ctrl/Cmd+K)"
        aria-label="Jump to a node"
        data-testid="node-search-button"
      >
        <Search size={15} aria-hidden="true" />
      </button>
    </>
  );
}

/** Import (through a hidden file input) and export of a workflow file. */
function FileTools({ files, readOnly }: { files: FileActions; readOnly: boolean }) {
  const fileInput = useRef<HTMLInputElement>(null);
  const onFile = (e: ChangeEvent<HTMLInputElement>) => {
    const file = e.target.files?.[0];
    e.target.value = ''; // the same file can be picked again after a refusal
    if (file) void files.importWorkflow(file);
  };
  return (
    <>
      <button
        type="button"
        className="icon-button tool"
        onClick={() => fileInput.current?.click()}
        disabled={readOnly}
        title="Import a workflow file (.json) as a new workflow"
        aria-label="Import workflow file"
        data-testid="import-button"
      >
        <Upload size={15} aria-hidden="true" />
      </button>
      <input ref={fileInput} type="file" accept=".json,application/json" hidden onChange={onFile} data-testid="import-file-input" />
      <button
        type="button"
        className="icon-button tool"
        onClick={() => files.exportWorkflow()}
        title="Export this workflow as <id>.json"
        aria-label="Export workflow file"
        data-testid="export-button"
      >
        <Download size={15} aria-hidden="true" />
      </button>
    </>
  );
}

/**
 * The canvas toolbar: auto-layout (one undo step), box-select mode (a drag on the pane selects; Shift+drag
 * does so in either mode), node search (Ctrl/Cmd+K), import and export of a workflow file, and the
 * keyboard help (?).
 */
export function CanvasToolbar({ files }: { files: FileActions }) {
  const openDialog = useStudio((s) => s.openDialog);
  const readOnly = useStudio((s) => s.diffView !== null);
  const hasNodes = useStudio((s) => s.nodes.length > 0);

  return (
    <div className="canvas-toolbar" role="toolbar" aria-label="Canvas tools" data-testid="canvas-toolbar">
      <ArrangeTools readOnly={readOnly} hasNodes={hasNodes} />
      <span className="tool-separator" aria-hidden="true" />
      <FileTools files={files} readOnly={readOnly} />
      <span className="tool-separator" aria-hidden="true" />
      <button
        type="button"
        className="icon-button tool"
        onClick={() => openDialog('shortcuts')}
        title="Keyboard shortcuts (?)"
        aria-label="Keyboard shortcuts"
        data-testid="shortcuts-button"
      >
        <Keyboard size={15} aria-hidden="true" />
      </button>
    </div>
  );
}
