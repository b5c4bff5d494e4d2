import { EditorView } from '@codemirror/view';

/** Replaces the text of the CodeMirror editor holding `element` (its `.cm-content`), as typing would. */
export function setEditorText(element: HTMLElement, text: string): void {
  const root = element.closest<HTMLElement>('.cm-editor');
  const view = root ? EditorView.findFromDOM(root) : null;
  if (!view) throw new Error('not inside a CodeMirror editor');
  view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text } });
}

export function editorText(element: HTMLElement): string {
  const root = element.closest<HTMLElement>('.cm-editor');
  const view = root ? EditorView.findFromDOM(root) : null;
  if (!view) throw new Error('not inside a CodeMirror editor');
  return view.state.doc.toString();
}
