import { assertNever } from '../../../shared/assert-never';
import { BadInputError } from '../../runtime/errors';
import type { VariableSource } from '../../security/variables';

/** The values a template may read (SEC-02): the message, plain run context, and allow-listed variables. */
export interface TemplateScope {
  payload: unknown;
  metadata: Readonly<Record<string, string>>;
  context: Readonly<Record<string, unknown>>;
  /** `${env.X}` and `${sys.x}` (`ctx.services.variables`); without it such references are refused. */
  variables?: VariableSource;
  /**
   * `decrypted:<name>` in the template's own text is replaced by the secret (fields that leave the engine:
   * headers, URLs, bodies). Text that a `${…}` reference brings in is never scanned for references, so a
   * payload cannot name a secret to have it sent somewhere.
   */
  secrets?: { value(name: string): string };
}

const TEMPLATE_OR_SECRET = /\$\{([^}]*)\}|decrypted:([A-Za-z][A-Za-z0-9_]{0,63})/g;

const ROOTS = ['payload', 'metadata', 'context', 'env', 'sys'] as const;

const TEMPLATE = /\$\{([^}]*)\}/g;
const WHOLE = /^\$\{([^}]*)\}$/;
const FORBIDDEN_KEYS = new Set(['__proto__', 'prototype', 'constructor']);
const TYPES = ['int', 'float', 'bool', 'json', 'text'] as const;
type ValueType = (typeof TYPES)[number];

/**
 * Renders `${payload.x}`, `${metadata.key}`, `${context.x}`, `${env.X}`, `${sys.x}` and typed
 * `${payload.n:int|float|bool|json}`.
 * A string that is exactly one typed template yields a typed value; anything else stays text.
 * Paths read own properties only, so prototypes are out of reach; there is no evaluation of code.
 */
export function renderTemplate(template: string, scope: TemplateScope): unknown {
  const whole = WHOLE.exec(template);
  if (whole) {
    const { path, type } = parseReference(whole[1]!);
    const value = resolve(path, scope);
    return type ? convert(value, type, whole[1]!) : toText(value);
  }
  const secrets = scope.secrets;
  if (secrets) {
    return template.replace(TEMPLATE_OR_SECRET, (_m, ref: string | undefined, secret: string | undefined) =>
      ref === undefined ? secrets.value(secret!) : toText(resolve(parseReference(ref).path, scope)),
    );
  }
  return template.replace(TEMPLATE, (_m, ref: string) => {
    const { path } = parseReference(ref);
    return toText(resolve(path, scope));
  });
}

/** Renders every string inside a JSON value, keeping its shape. */
export function renderDeep(value: unknown, scope: TemplateScope): unknown {
  if (typeof value === 'string') return value.includes('${') || (scope.secrets && value.includes('decrypted:')) ? renderTemplate(value, scope) : value;
  if (Array.isArray(value)) return value.map((v) => renderDeep(v, scope));
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = renderDeep(v, scope);
    return out;
  }
  return value;
}

function parseReference(ref: string): { path: string[]; type: Exclude<ValueType, 'text'> | null } {
  const trimmed = ref.trim();
  const colon = trimmed.lastIndexOf(':');
  let expr = trimmed;
  let type: Exclude<ValueType, 'text'> | null = null;
  if (colon > 0) {
    const candidate = trimmed.slice(colon + 1);
    if (!(TYPES as readonly string[]).includes(candidate))
      throw new BadInputError(`template \${${ref}}: unknown type "${candidate}" (use ${TYPES.join(', ')})`);
    type = candidate === 'text' ? null : (candidate as Exclude<ValueType, 'text'>);
    expr = trimmed.slice(0, colon);
  }
  const path = expr.split('.');
  const root = path[0];
  if (!(ROOTS as readonly string[]).includes(root ?? '')) {
    throw new BadInputError(`template \${${ref}}: must start with ${ROOTS.join(', ')}`);
  }
  if (path.some((p) => p === '' || FORBIDDEN_KEYS.has(p))) throw new BadInputError(`template \${${ref}}: invalid path`);
  return { path, type };
}

function resolve(path: string[], scope: TemplateScope): unknown {
  const root = path[0];
  if (root === 'env' || root === 'sys') {
    if (!scope.variables) throw new BadInputError(`template \${${path.join('.')}}: variables are not available in this field`);
    const name = path.slice(1).join('.');
    return root === 'env' ? scope.variables.env(name) : scope.variables.sys(name);
  }
  let current: unknown = scope[path[0] as keyof TemplateScope];
  for (let i = 1; i < path.length; i++) {
    if (current === null || typeof current !== 'object') return undefined;
    const key = path[i]!;
    if (!Object.prototype.hasOwnProperty.call(current, key)) return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}

function toText(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

function convert(value: unknown, type: Exclude<ValueType, 'text'>, ref: string): unknown {
  if (value === undefined) return null;
  switch (type) {
    case 'int': {
      const n = typeof value === 'number' ? value : Number(String(value).trim());
      if (!Number.isFinite(n)) throw new BadInputError(`template \${${ref}}: "${toText(value)}" is not a number`);
      return Math.trunc(n);
    }
    case 'float': {
      const n = typeof value === 'number' ? value : Number(String(value).trim());
      if (!Number.isFinite(n)) throw new BadInputError(`template \${${ref}}: "${toText(value)}" is not a number`);
      return n;
    }
    case 'bool':
      if (typeof value === 'boolean') return value;
      if (value === 'true') return true;
      if (value === 'false') return false;
      throw new BadInputError(`template \${${ref}}: "${toText(value)}" is not true or false`);
    case 'json':
      if (typeof value !== 'string') return value;
      try {
        return JSON.parse(value) as unknown;
      } catch {
        throw new BadInputError(`template \${${ref}}: not valid JSON`);
      }
    default:
      return assertNever(type, 'template type');
  }
}
