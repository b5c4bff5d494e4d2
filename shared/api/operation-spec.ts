import type { z } from 'zod';
import type { Role } from './roles';

type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** One operation of the StudioApi: its input schema, output schema, the role it needs and its REST route. */
export interface OperationSpec<I extends z.ZodType = z.ZodType, O extends z.ZodType = z.ZodType> {
  summary: string;
  input: I;
  output: O;
  role: Role;
  /** REST route; `:name` segments are filled from input fields; GET reads the rest from the query string. */
  http: { method: HttpMethod; path: string };
}

export function op<I extends z.ZodType, O extends z.ZodType>(spec: OperationSpec<I, O>): OperationSpec<I, O> {
  return spec;
}
