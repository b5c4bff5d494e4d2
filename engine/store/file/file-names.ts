import { randomBytes } from 'node:crypto';

/**
 * File names for ids (DEF-01: ids URL-encoded). `encodeURIComponent` leaves `.` alone and keeps names
 * Windows refuses, so a name that is all dots, ends with a dot or is a reserved device name (CON, NUL,
 * COM1, …) gets one more character percent-encoded; `decodeURIComponent` reverses every case.
 */
export function encodeName(id: string): string {
  let name = encodeURIComponent(id);
  if (name.endsWith('.')) name = `${name.slice(0, -1)}%2E`;
  if (RESERVED.test(name)) name = `%${name.charCodeAt(0).toString(16).toUpperCase()}${name.slice(1)}`;
  return name;
}

/** The id a folder name stands for, or null for a name we did not write (temp, trash, foreign). */
export function decodeName(name: string): string | null {
  if (name.startsWith(PRIVATE_PREFIX)) return null;
  try {
    const id = decodeURIComponent(name);
    return encodeName(id) === name ? id : null;
  } catch {
    return null;
  }
}

/**
 * Prefix of the store's own entries beside id folders (`@session.json`, `@trash-…`): encodeURIComponent
 * always escapes `@`, so no id can produce such a name.
 */
export const PRIVATE_PREFIX = '@';
export const SESSION_FILE = `${PRIVATE_PREFIX}session.json`;

/** A unique name to move a folder to before deleting it, so the delete is atomic for readers. */
export function trashName(): string {
  return `${PRIVATE_PREFIX}trash-${randomBytes(6).toString('hex')}`;
}

/** Versions are content hashes: anything else is refused before it becomes part of a path. */
export function isVersionName(version: string): boolean {
  return /^[0-9a-f]{64}$/.test(version);
}

const RESERVED = /^(con|prn|aux|nul|com[0-9]|lpt[0-9])(\..*)?$/i;
