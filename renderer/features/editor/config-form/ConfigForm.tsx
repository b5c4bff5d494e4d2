import { useMemo } from 'react';
import type { NodeTypeInfo } from '../../../../shared/workflow/node-type';
import type { ValidationIssue } from '../../../../shared/workflow/validation-issue';
import type { StudioNodeData } from '../../../store/graph-model';
import { useStudio } from '../../../store/studio-store';
import { ENGINE_POLICY_FIELDS, TIMEOUT_FIELD } from './engine-policy-fields';
import { issuesByField } from './field-issues';
import { FieldView, type FieldMessage } from './FieldViews';
import { checkFields, describeFields, fieldKeys, pathKey, setAt, type FieldSpec, type JsonSchema } from './schema-fields';

/**
 * The Form tab: fields generated from the plugin's config schema, then the engine policy and the node
 * timeout. Each field shows its DEF-02 issue (live validation) or its instant check under it.
 */
export function ConfigForm({
  nodeId,
  data,
  info,
  issues,
}: {
  nodeId: string;
  data: StudioNodeData;
  info: NodeTypeInfo | undefined;
  issues: readonly ValidationIssue[] | undefined;
}) {
  const edit = useStudio((s) => s.edit);
  const pluginFields = useMemo(() => (info ? describeFields(info.configSchema as JsonSchema).filter((f) => f.key !== 'engine') : []), [info]);
  const errors = useMemo(() => fieldErrors(pluginFields, data, issues), [pluginFields, data, issues]);

  const onFieldChange = (path: readonly string[], value: unknown) => {
    if (pathKey(path) === TIMEOUT_FIELD.key) {
      edit({
        kind: 'set-timeout',
        nodeId,
        timeoutSeconds: typeof value === 'number' || (typeof value === 'string' && value.startsWith('${')) ? value : undefined,
      });
      return;
    }
    const current = useStudio.getState().nodes.find((n) => n.id === nodeId)?.data.config ?? {};
    edit({ kind: 'set-config', nodeId, config: setAt(current, path, value), field: pathKey(path) });
  };
  const timeoutRoot = data.timeoutSeconds === undefined ? {} : { timeoutSeconds: data.timeoutSeconds };

  return (
    <div className="config-form" data-testid="config-form">
      {!info && <p className="field-hint form-note">Unknown node type: edit its config in the JSON tab.</p>}
      {info && pluginFields.length === 0 && <p className="field-hint form-note">This node type has no options.</p>}
      {pluginFields.map((field) => (
        <FieldView key={field.key} field={field} root={data.config} errors={errors} onFieldChange={onFieldChange} />
      ))}
      <details className="policy-section" open={hasPolicy(data) || policyHasIssue(errors)} data-testid="engine-policy">
        <summary>Engine policy</summary>
        <FieldView field={TIMEOUT_FIELD} root={timeoutRoot} errors={errors} onFieldChange={onFieldChange} />
        {ENGINE_POLICY_FIELDS.map((field) => (
          <FieldView key={field.key} field={field} root={data.config} errors={errors} onFieldChange={onFieldChange} />
        ))}
      </details>
    </div>
  );
}

/** DEF-02 issues first (they carry the code), then the instant checks of the generated fields. */
export function fieldErrors(
  pluginFields: readonly FieldSpec[],
  data: StudioNodeData,
  issues: readonly ValidationIssue[] | undefined,
): Map<string, FieldMessage> {
  const keys = fieldKeys(ENGINE_POLICY_FIELDS, data.config, fieldKeys(pluginFields, data.config, new Set([TIMEOUT_FIELD.key, 'engine'])));
  const { byField } = issuesByField(issues, keys);
  const errors = new Map<string, FieldMessage>(byField);
  const local = [...checkFields(pluginFields, data.config), ...checkFields(ENGINE_POLICY_FIELDS, data.config)];
  for (const [key, message] of local) if (!errors.has(key)) errors.set(key, { message });
  return errors;
}

function hasPolicy(data: StudioNodeData): boolean {
  return data.timeoutSeconds !== undefined || data.config['engine'] !== undefined;
}

function policyHasIssue(errors: ReadonlyMap<string, FieldMessage>): boolean {
  return [...errors.keys()].some((k) => k === 'engine' || k.startsWith('engine.') || k === TIMEOUT_FIELD.key);
}
