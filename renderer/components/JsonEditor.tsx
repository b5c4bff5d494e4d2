import { lazy, Suspense } from 'react';
import type { JsonEditorProps } from './CodeMirrorJsonEditor';

// CodeMirror is a third of the bundle and only needed once a JSON field is shown: loaded on demand, so
// the studio starts faster (bench/ui-canvas measures the start).
const CodeMirrorJsonEditor = lazy(() => import('./CodeMirrorJsonEditor'));

/** A JSON editor (CodeMirror 6, loaded when first shown). */
export function JsonEditor(props: JsonEditorProps) {
  return (
    <Suspense fallback={<div className="json-editor is-loading" style={{ ['--min-lines' as string]: props.minLines ?? 6 }} aria-busy="true" />}>
      <CodeMirrorJsonEditor {...props} />
    </Suspense>
  );
}
