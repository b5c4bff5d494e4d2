import { JsonEditor } from '../../../components/JsonEditor';
import { useStudio } from '../../../store/studio-store';
import { parseConfigText } from '../config-text';
import { useDraft } from './use-draft';

/** The JSON tab: the whole config in CodeMirror; applied as typed when it is a JSON object. */
export function RawConfigEditor({ nodeId, config }: { nodeId: string; config: Record<string, unknown> }) {
  const edit = useStudio((s) => s.edit);
  const draft = useDraft<Record<string, unknown>>(
    config,
    (c) => JSON.stringify(c, null, 2),
    parseConfigText,
    (value) => edit({ kind: 'set-config', nodeId, config: value, field: '(json)' }),
  );
  return (
    <div className="field">
      <JsonEditor value={draft.text} onChange={draft.onText} label="Config (JSON)" testId="inspector-config" invalid={draft.error !== null} minLines={10} />
      {draft.error ? (
        <span className="field-error" role="alert" data-testid="inspector-config-error">
          {draft.error}
        </span>
      ) : (
        <span className="field-hint">Applied as you type when it is a valid JSON object; the form shows the same config.</span>
      )}
    </div>
  );
}
