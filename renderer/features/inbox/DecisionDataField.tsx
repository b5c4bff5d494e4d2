import { JsonEditor } from '../../components/JsonEditor';

/** The optional JSON sent with an approval decision, and why it cannot be sent (the inbox and the inspector's block). */
export function DecisionDataField({
  data,
  setData,
  dataError,
  testId,
}: {
  data: string;
  setData: (text: string) => void;
  dataError: string | null;
  testId: string;
}) {
  return (
    <>
      <JsonEditor
        value={data}
        onChange={setData}
        label="Data sent with the decision (JSON, optional)"
        placeholder='Optional JSON data, e.g. {"by": "ops"}'
        testId={testId}
        minLines={2}
        invalid={dataError !== null}
      />
      {dataError && (
        <span className="field-error" role="alert" data-testid={`${testId}-error`}>
          {dataError}
        </span>
      )}
    </>
  );
}
