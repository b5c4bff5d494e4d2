/**
 * Electron accelerators (`CmdOrCtrl+Shift+Z`, `F5`, `Delete`, `?`) matched against key events, so the
 * renderer's keyboard handler and the desktop menu share one table of keys (STU-08).
 */
export interface KeyChord {
  mod: boolean;
  shift: boolean;
  alt: boolean;
  /** `e.key`, lower-cased for letters. */
  key: string;
}

const MODIFIERS: Record<string, keyof Omit<KeyChord, 'key'>> = {
  cmdorctrl: 'mod',
  commandorcontrol: 'mod',
  ctrl: 'mod',
  control: 'mod',
  cmd: 'mod',
  command: 'mod',
  super: 'mod',
  meta: 'mod',
  shift: 'shift',
  alt: 'alt',
  option: 'alt',
};

/** Parses an accelerator; throws on one it cannot read (a typo in the table fails its test). */
export function parseAccelerator(accelerator: string): KeyChord {
  const parts = accelerator.split('+');
  // "CmdOrCtrl++" would be a plus key; this table writes "=" instead, so "+" only separates.
  const key = parts.pop();
  if (!key) throw new Error(`accelerator "${accelerator}" has no key`);
  const chord: KeyChord = { mod: false, shift: false, alt: false, key: key.length === 1 ? key.toLowerCase() : key };
  for (const part of parts) {
    const modifier = MODIFIERS[part.toLowerCase()];
    if (!modifier) throw new Error(`accelerator "${accelerator}": unknown modifier "${part}"`);
    chord[modifier] = true;
  }
  return chord;
}

/** Keys typed with Shift on most layouts (`?`, `+`…): their Shift is part of the key, not of the chord. */
const SHIFTED_SYMBOL = /^[^a-z0-9]$/i;

/** Whether a key event is the chord: the same key and modifiers (Ctrl or Cmd both count as CmdOrCtrl). */
export function matchesChord(e: Pick<KeyboardEvent, 'key' | 'ctrlKey' | 'metaKey' | 'shiftKey' | 'altKey'>, chord: KeyChord): boolean {
  const key = e.key.length === 1 ? e.key.toLowerCase() : e.key;
  if (key !== chord.key) return false;
  if ((e.ctrlKey || e.metaKey) !== chord.mod || e.altKey !== chord.alt) return false;
  return (!chord.shift && SHIFTED_SYMBOL.test(chord.key)) || e.shiftKey === chord.shift;
}
