import { parse } from '@marcbachmann/cel-js';
import { BadInputError } from '../../runtime/errors';

type Compiled = ReturnType<typeof parse>;
const compiled = new Map<string, Compiled>();
const MAX_CACHED = 1000;

/**
 * Conditions are CEL (Common Expression Language): not Turing-complete, no access to prototypes, globals
 * or host functions — never `eval` or `new Function`. Parsed once per expression text.
 */
export function compileCondition(expression: string): Compiled {
  let fn = compiled.get(expression);
  if (!fn) {
    fn = parse(expression);
    if (compiled.size >= MAX_CACHED) compiled.delete(compiled.keys().next().value as string);
    compiled.set(expression, fn);
  }
  return fn;
}

/** Why an expression does not parse, or null; used by config schemas so DEF-02 reports it with its path. */
export function conditionSyntaxError(expression: string): string | null {
  try {
    compileCondition(expression);
    return null;
  } catch (error) {
    return error instanceof Error ? error.message.split('\n')[0]! : String(error);
  }
}

/** Evaluates a condition over a message; anything but a boolean, or an evaluation error, is bad input. */
export function evaluateCondition(expression: string, scope: { payload: unknown; metadata: Readonly<Record<string, string>> }, nodeId: string): boolean {
  let value: unknown;
  try {
    value = compileCondition(expression)({ payload: scope.payload as never, metadata: scope.metadata as never });
  } catch (error) {
    const reason = error instanceof Error ? error.message.split('\n')[0] : String(error);
    throw new BadInputError(`node "${nodeId}": condition \`${expression}\` failed: ${reason}`, 'CONDITION_FAILED');
  }
  if (typeof value !== 'boolean')
    throw new BadInputError(`node "${nodeId}": condition \`${expression}\` gave ${typeof value}, not true or false`, 'CONDITION_NOT_BOOLEAN');
  return value;
}
