import { json } from '@codemirror/lang-json';
import { EditorState } from '@codemirror/state';
import { EditorView, placeholder as placeholderText } from '@codemirror/view';
import { basicSetup } from 'codemirror';
import { useEffect, useRef } from 'react';

const THEME = EditorView.theme({
  '&': { backgroundColor: 'var(--panel-2)', border: '1px solid var(--border)', borderRadius: 'var(--radius)', fontSize: '12px' },
  '&.cm-focused': { outline: '2px solid var(--focus)' },
  '.cm-scroller': { fontFamily: 'var(--mono)', maxHeight: '340px', overflow: 'auto' },
  '.cm-gutters': { backgroundColor: 'transparent', borderRight: '1px solid var(--border)', color: 'var(--fg-muted)' },
  '.cm-content': { caretColor: 'var(--fg)' },
});

export interface JsonEditorProps {
  value: string;
  onChange: (text: string) => void;
  testId?: string;
  label: string;
  invalid?: boolean;
  minLines?: number;
  placeholder?: string;
}

/**
 * A JSON editor (CodeMirror 6, bundled: works offline and under our CSP). `value` is the text to show;
 * the editor reports every change and is replaced from outside only when `value` is not what it last
 * reported (an undo, another tab). The test id and label sit on the editable element.
 */
export default function CodeMirrorJsonEditor({ value, onChange, testId, label, invalid = false, minLines = 6, placeholder }: JsonEditorProps) {
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);
  const reported = useRef(value);
  const onChangeRef = useRef(onChange);
  useEffect(() => {
    onChangeRef.current = onChange;
  }, [onChange]);

  useEffect(() => {
    const attributes: Record<string, string> = { 'aria-label': label, 'aria-multiline': 'true' };
    if (testId) attributes['data-testid'] = testId;
    const editor = new EditorView({
      parent: host.current!,
      state: EditorState.create({
        doc: reported.current,
        extensions: [
          basicSetup,
          json(),
          THEME,
          EditorView.lineWrapping,
          EditorView.contentAttributes.of(attributes),
          ...(placeholder ? [placeholderText(placeholder)] : []),
          EditorView.updateListener.of((update) => {
            if (!update.docChanged) return;
            reported.current = update.state.doc.toString();
            onChangeRef.current(reported.current);
          }),
        ],
      }),
    });
    view.current = editor;
    return () => {
      editor.destroy();
      view.current = null;
    };
    // The editor is created once; label, test id and placeholder are fixed for its lifetime.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  useEffect(() => {
    const editor = view.current;
    if (!editor || value === reported.current || value === editor.state.doc.toString()) return;
    reported.current = value;
    editor.dispatch({ changes: { from: 0, to: editor.state.doc.length, insert: value } });
  }, [value]);

  return <div ref={host} className={`json-editor${invalid ? ' is-invalid' : ''}`} style={{ ['--min-lines' as string]: minLines }} />;
}
