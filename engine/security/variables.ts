import { arch, homedir, platform, release, tmpdir, userInfo, EOL } from 'node:os';
import { delimiter, sep } from 'node:path';
import { BadInputError } from '../runtime/errors';

/** What `${env.X}` and `${sys.x}` read (SEC-02). Refused names throw a BadInputError naming the variable. */
export interface VariableSource {
  env(name: string): string | undefined;
  sys(name: string): string | undefined;
}

/** Environment variables readable without being listed: `YUKTA_VAR_*` and these harmless names. */
export const HARMLESS_ENV = ['HOME', 'USER', 'USERNAME', 'LOGNAME', 'PATH', 'LANG', 'LANGUAGE', 'TZ', 'TMPDIR', 'TEMP', 'TMP', 'HOSTNAME', 'SHELL'] as const;
export const ENV_PREFIX = 'YUKTA_VAR_';
/** System values readable as `${sys.x}`, plus `yukta.var.*` from the settings. */
export const HARMLESS_SYS = [
  'user.name',
  'user.home',
  'user.dir',
  'os.name',
  'os.arch',
  'os.version',
  'node.version',
  'file.separator',
  'path.separator',
  'line.separator',
  'tmp.dir',
] as const;
export const SYS_PREFIX = 'yukta.var.';

/**
 * Names that look like secrets stay unreadable even when listed in `yukta.variables.allowed`: a secret is
 * written `decrypted:<name>` and never becomes a variable.
 */
const SECRET_LIKE =
  /(pass(word|wd)?|pwd|secret|token|api[-_.]?key|apikey|private|credential|auth|cookie|session[-_.]?id|signature|salt|cert|(^|[-_.])key($|[-_.])|access[-_.]?key)/i;

export function looksSecret(name: string): boolean {
  return SECRET_LIKE.test(name);
}

export interface VariableOptions {
  /** The process environment (tests pass their own). */
  env: Readonly<Record<string, string | undefined>>;
  /** Extra names from `yukta.variables.allowed` (environment or system names). */
  allowed?: readonly string[];
  /** `yukta.var.*` values from the settings. */
  settingsVars?: Readonly<Record<string, string>>;
}

function systemValues(): Record<string, string> {
  let user: string;
  try {
    user = userInfo().username;
  } catch {
    user = '';
  }
  return {
    'user.name': user,
    'user.home': homedir(),
    'user.dir': process.cwd(),
    'os.name': platform(),
    'os.arch': arch(),
    'os.version': release(),
    'node.version': process.versions.node,
    'file.separator': sep,
    'path.separator': delimiter,
    'line.separator': EOL,
    'tmp.dir': tmpdir(),
  };
}

/**
 * The allow-list (SEC-02): `${env.X}` reads `YUKTA_VAR_*`, a short list of harmless names and names in
 * `yukta.variables.allowed`; `${sys.x}` reads a few system values, `yukta.var.*` settings and listed names.
 * Anything that looks like a secret is refused whatever the lists say.
 */
export class AllowListVariables implements VariableSource {
  private readonly allowed: ReadonlySet<string>;
  private sysValues: Record<string, string> | null = null;

  constructor(private readonly options: VariableOptions) {
    this.allowed = new Set(options.allowed ?? []);
  }

  env(name: string): string | undefined {
    if (looksSecret(name)) throw refused('env', name, 'it looks like a secret (write decrypted:<name> instead)');
    const ok = name.startsWith(ENV_PREFIX) || (HARMLESS_ENV as readonly string[]).includes(name) || this.allowed.has(name);
    if (!ok) throw refused('env', name, `only ${ENV_PREFIX}*, ${HARMLESS_ENV.join(', ')} and names in yukta.variables.allowed are readable`);
    return this.options.env[name];
  }

  sys(name: string): string | undefined {
    if (looksSecret(name)) throw refused('sys', name, 'it looks like a secret (write decrypted:<name> instead)');
    if (name.startsWith(SYS_PREFIX)) return this.options.settingsVars?.[name];
    const harmless = (HARMLESS_SYS as readonly string[]).includes(name);
    if (!harmless && !this.allowed.has(name))
      throw refused('sys', name, `only ${HARMLESS_SYS.join(', ')}, ${SYS_PREFIX}* and names in yukta.variables.allowed are readable`);
    this.sysValues ??= systemValues();
    return Object.prototype.hasOwnProperty.call(this.sysValues, name) ? this.sysValues[name] : this.options.settingsVars?.[name];
  }
}

function refused(root: 'env' | 'sys', name: string, why: string): BadInputError {
  return new BadInputError(`\${${root}.${name}} is not readable: ${why}`, 'VARIABLE_REFUSED');
}
