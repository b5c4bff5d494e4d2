/**
 * Workflow files handed to the desktop app (STU-08): on the command line, by the OS (`open-file`, a second
 * launch's argv, the `.yukta.json` association) or through File → Open…. Each is checked here before its
 * text reaches the renderer: a plain path (no URL, no `..`, no NUL), a `.json` name, a regular file, at
 * most 1 MiB, JSON, and a workflow definition. The renderer imports it into the current session (and
 * checks again, with the node catalog and the host), or shows the reason it was refused.
 */
import { closeSync, openSync, readSync, statSync } from 'node:fs';
import { basename, isAbsolute, resolve } from 'node:path';
import type { OpenedFile } from '../../shared/desktop/desktop-bridge';
import { validateWorkflowShape } from '../../shared/workflow/graph-validation';
import { linkForLog, parseDeepLink } from './deep-link';

/** Largest workflow file opened (the same cap as the studio's Import, 1 MiB). */
export const MAX_WORKFLOW_FILE_BYTES = 1024 * 1024;

/** What a launch's argv asks for: workflow files and `yukta://` links (switches and the app path left out). */
export interface LaunchRequest {
  files: string[];
  /** `yukta://` links that parse (`parseDeepLink`), as given. */
  links: string[];
  /** Arguments that are neither, logged and ignored. */
  ignored: string[];
}

/**
 * Reads argv as Electron passes it: `[exe, file…]` packaged, `[exe, appPath, file…]` from a checkout.
 * Chromium switches (`--foo`) are skipped; a `yukta:` argument must be a valid link.
 */
export function launchRequest(argv: readonly string[], packaged: boolean): LaunchRequest {
  const request: LaunchRequest = { files: [], links: [], ignored: [] };
  for (const arg of argv.slice(packaged ? 1 : 2)) {
    if (arg.startsWith('-')) continue;
    if (/^yukta:/i.test(arg)) {
      if (parseDeepLink(arg)) request.links.push(arg);
      else request.ignored.push(linkForLog(arg));
    } else request.files.push(arg);
  }
  return request;
}

/** A URL-like argument (`javascript:`, `file://`, `https://`), but not a Windows drive path (`C:\…`). */
const SCHEME = /^[a-z][a-z0-9+.-]*:/i;
const DRIVE = /^[a-z]:[\\/]/i;

/** Why a path argument is refused before the disk is touched, or null. */
export function pathProblem(input: string): string | null {
  if (input.length === 0) return 'the path is empty';
  if (input.length > 4096) return 'the path is longer than 4096 characters';
  if (input.includes('\0')) return 'the path holds a NUL character';
  if (SCHEME.test(input) && !DRIVE.test(input)) return `only files can be opened, not a ${input.slice(0, input.indexOf(':') + 1)} link`;
  if (input.split(/[\\/]+/).includes('..')) return 'a path with ".." (path traversal) is refused; give the file itself';
  if (!/\.json$/i.test(input)) return 'only workflow files (.yukta.json or .json) can be opened';
  return null;
}

/** The name to show for an input (never more than the last path segment). */
function shownName(input: string): string {
  const name = basename(input.replace(/\\/g, '/')) || 'file';
  return name.length > 120 ? `${name.slice(0, 120)}…` : name;
}

/** Reads at most `limit + 1` bytes, so a file that grew since `stat` is still refused, not loaded whole. */
function readCapped(path: string, limit: number): Buffer {
  const fd = openSync(path, 'r');
  try {
    const buffer = Buffer.alloc(limit + 1);
    let length = 0;
    for (let n = -1; n !== 0 && length < buffer.length; length += n) n = readSync(fd, buffer, length, buffer.length - length, null);
    return buffer.subarray(0, length);
  } finally {
    closeSync(fd);
  }
}

function describeSize(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${(bytes / (1024 * 1024)).toFixed(1)} MiB` : `${Math.ceil(bytes / 1024)} KiB`;
}

/**
 * Checks and reads one workflow file; relative paths are resolved against `cwd` (a second launch passes
 * its own). Returns the text to import, or the reason it is refused; never throws.
 */
export function readWorkflowFile(input: string, cwd: string): OpenedFile & { path?: string } {
  const name = shownName(input);
  const problem = pathProblem(input);
  if (problem) return { name, refused: problem };
  const path = isAbsolute(input) ? input : resolve(cwd, input);
  let size: number;
  try {
    const stat = statSync(path);
    if (!stat.isFile()) return { name, refused: stat.isDirectory() ? 'it is a folder, not a file' : 'it is not a regular file' };
    size = stat.size;
  } catch (error) {
    return {
      name,
      refused: (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'the file does not exist' : `the file cannot be read (${(error as Error).message})`,
    };
  }
  const tooLarge = (bytes: number) => ({
    name,
    refused: `the file is ${describeSize(bytes)}; a workflow file is at most ${describeSize(MAX_WORKFLOW_FILE_BYTES)}`,
  });
  if (size > MAX_WORKFLOW_FILE_BYTES) return tooLarge(size);
  let bytes: Buffer;
  try {
    bytes = readCapped(path, MAX_WORKFLOW_FILE_BYTES);
  } catch (error) {
    return { name, refused: `the file cannot be read (${(error as Error).message})` };
  }
  if (bytes.length > MAX_WORKFLOW_FILE_BYTES) return tooLarge(bytes.length);
  const text = bytes.toString('utf8');
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    return { name, refused: `the file is not JSON (${(error as Error).message})` };
  }
  const { definition, issues } = validateWorkflowShape(raw);
  const error = issues.find((i) => i.severity === 'error');
  if (!definition || error)
    return { name, refused: `not a workflow definition: ${error ? `${error.code} ${error.message}` : 'it needs "workflowId" and "nodes"'}` };
  return { name, text, path };
}
