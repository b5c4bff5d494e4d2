/**
 * Ends every `switch` over a closed union (ARCHITECTURE.md): with all cases handled the value's type is
 * `never`, so a new member of the union fails to compile here; at run time an unexpected value throws.
 */
export function assertNever(value: never, what = 'value'): never {
  throw new Error(`unexpected ${what}: ${JSON.stringify(value)}`);
}
