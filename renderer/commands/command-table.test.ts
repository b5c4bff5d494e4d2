// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import { acceleratorOf, COMMAND_IDS, COMMANDS } from '../../shared/desktop/commands';
import { SHORTCUTS } from '../features/workflow/shortcuts';
import { matchesChord, parseAccelerator } from './accelerator';
import { COMMAND_TABLE } from './command-table';
import { commandForKey } from './use-commands';

const key = (k: string, mods: Partial<Record<'ctrlKey' | 'metaKey' | 'shiftKey' | 'altKey', boolean>> = {}) =>
  new KeyboardEvent('keydown', { key: k, ...mods });

describe('STU-08 the renderer command table', () => {
  it('has a run for every command id (the ids the menu sends and the preload lets through)', () => {
    expect(Object.keys(COMMAND_TABLE).sort()).toEqual([...COMMAND_IDS].sort());
    for (const id of COMMAND_IDS) expect(typeof COMMAND_TABLE[id].run, id).toBe('function');
  });

  it('every accelerator parses, and no two commands share a key', () => {
    const keys = COMMAND_IDS.flatMap((id) => [acceleratorOf(id), ...(COMMAND_TABLE[id].keys ?? [])].filter((k): k is string => Boolean(k)));
    const chords = keys.map((k) => JSON.stringify(parseAccelerator(k)));
    expect(new Set(chords).size).toBe(chords.length);
    expect(() => parseAccelerator('Hyper+S')).toThrow('unknown modifier "Hyper"');
  });

  it("maps UI.md's keyboard table to its commands (Ctrl or Cmd)", () => {
    const cases: Array<[KeyboardEvent, string | null]> = [
      [key('s', { ctrlKey: true }), 'file.save'],
      [key('s', { metaKey: true }), 'file.save'],
      [key('S', { ctrlKey: true, shiftKey: true }), 'file.save-as'],
      [key('z', { ctrlKey: true }), 'edit.undo'],
      [key('Z', { ctrlKey: true, shiftKey: true }), 'edit.redo'],
      [key('y', { ctrlKey: true }), 'edit.redo'],
      [key('c', { metaKey: true }), 'edit.copy'],
      [key('v', { ctrlKey: true }), 'edit.paste'],
      [key('d', { ctrlKey: true }), 'edit.duplicate'],
      [key('Delete'), 'edit.delete'],
      [key('Backspace'), 'edit.delete'],
      [key('k', { ctrlKey: true }), 'view.jump-to-node'],
      [key('F5'), 'run.run'],
      [key('F5', { shiftKey: true }), 'run.stop'],
      [key('F5', { altKey: true }), 'run.run-with-payload'],
      [key('F6'), 'run.pause-resume'],
      [key('F9'), 'run.toggle-breakpoint'],
      [key('F10'), 'run.step'],
      [key('I', { ctrlKey: true, shiftKey: true }), 'view.inbox'],
      [key('?', { shiftKey: true }), 'help.shortcuts'],
      [key('?'), 'help.shortcuts'],
      [key(',', { ctrlKey: true }), 'file.settings'],
      [key(',', { metaKey: true }), 'file.settings'],
      [key('s'), null],
      [key('F5', { ctrlKey: true }), null],
      [key('z', { ctrlKey: true, altKey: true }), null],
    ];
    for (const [event, id] of cases) expect(commandForKey(event), `${event.key} ${event.ctrlKey} ${event.shiftKey}`).toBe(id);
    expect(matchesChord(key('='), parseAccelerator('CmdOrCtrl+='))).toBe(false);
  });

  it('the ? help lists every accelerator of the table', () => {
    const listed = new Set(SHORTCUTS.flatMap((g) => g.items.map((i) => i.keys.join('+'))));
    for (const id of COMMAND_IDS) {
      const accelerator = acceleratorOf(id);
      if (!accelerator) continue;
      expect(listed, `${id} (${COMMANDS[id].label})`).toContain(accelerator.replace('CmdOrCtrl', 'Ctrl').replace('Delete', 'Del'));
    }
  });
});
