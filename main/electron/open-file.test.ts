import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createFileOpener } from './file-opener';
import { launchRequest, pathProblem, readWorkflowFile } from './open-file';

const WORKFLOW = { workflowId: 'orders', description: '', nodes: [{ nodeId: 'start', type: 'API_TRIGGER', config: {} }], edges: [] };

function folder(): string {
  const dir = mkdtempSync(join(tmpdir(), 'yukta-open-'));
  writeFileSync(join(dir, 'orders.yukta.json'), JSON.stringify(WORKFLOW));
  return dir;
}

describe('STU-08 opening a workflow file handed to the desktop app', () => {
  it('reads a valid .yukta.json (absolute, or relative to the launch folder) and hands over its name and text', () => {
    const dir = folder();
    expect(readWorkflowFile(join(dir, 'orders.yukta.json'), '/elsewhere')).toEqual({
      name: 'orders.yukta.json',
      text: JSON.stringify(WORKFLOW),
      path: join(dir, 'orders.yukta.json'),
    });
    expect(readWorkflowFile('orders.yukta.json', dir)).toMatchObject({ name: 'orders.yukta.json', text: JSON.stringify(WORKFLOW) });
  });

  it('refuses invalid files with the reason: missing, a folder, not JSON, JSON but not a workflow, an invalid graph, oversized', () => {
    const dir = folder();
    writeFileSync(join(dir, 'broken.json'), '{"workflowId": "x", "nodes": [');
    writeFileSync(join(dir, 'list.json'), '[1, 2]');
    writeFileSync(
      join(dir, 'cycle.json'),
      JSON.stringify({
        workflowId: 'c',
        nodes: [
          { nodeId: 'a', type: 'TRANSFORM' },
          { nodeId: 'b', type: 'TRANSFORM' },
        ],
        edges: [
          { source: 'a', target: 'b' },
          { source: 'b', target: 'a' },
        ],
      }),
    );
    writeFileSync(join(dir, 'huge.json'), Buffer.alloc(1024 * 1024 + 1, 0x20));
    mkdirSync(join(dir, 'folder.json'));
    const refusal = (name: string) => readWorkflowFile(join(dir, name), dir);
    expect(refusal('missing.json')).toEqual({ name: 'missing.json', refused: 'the file does not exist' });
    expect(refusal('folder.json')).toEqual({ name: 'folder.json', refused: 'it is a folder, not a file' });
    expect(refusal('broken.json')).toMatchObject({ refused: expect.stringMatching(/^the file is not JSON \(/) });
    expect(refusal('list.json')).toMatchObject({ refused: expect.stringMatching(/^not a workflow definition: /) });
    expect(refusal('cycle.json')).toMatchObject({ refused: expect.stringContaining('DEF-02/cycle') });
    expect(refusal('huge.json')).toEqual({ name: 'huge.json', refused: 'the file is 1.0 MiB; a workflow file is at most 1.0 MiB' });
  });

  it('refuses hostile inputs before touching the disk: traversal, URLs (javascript:, file:, https:), NUL, other extensions, devices', () => {
    const dir = folder();
    const hostile: Array<[string, string]> = [
      ['../../etc/passwd.json', 'a path with ".." (path traversal) is refused; give the file itself'],
      ['sub/../../orders.yukta.json', 'a path with ".." (path traversal) is refused; give the file itself'],
      ['..\\..\\Windows\\win.json', 'a path with ".." (path traversal) is refused; give the file itself'],
      ['javascript:alert(1)//.json', 'only files can be opened, not a javascript: link'],
      ['file:///etc/passwd.json', 'only files can be opened, not a file: link'],
      ['https://evil.example/w.json', 'only files can be opened, not a https: link'],
      ['orders.yukta.json\0.png', 'the path holds a NUL character'],
      ['/etc/passwd', 'only workflow files (.yukta.json or .json) can be opened'],
      ['', 'the path is empty'],
    ];
    for (const [input, reason] of hostile) expect(readWorkflowFile(input, dir), input).toMatchObject({ refused: reason });
    expect(pathProblem('C:\\Users\\ada\\orders.yukta.json')).toBeNull(); // a Windows drive is a path, not a scheme
    // A symlink named .json to a device or to a non-workflow is read as what it points to, and refused.
    symlinkSync('/dev/zero', join(dir, 'zero.json'));
    expect(readWorkflowFile(join(dir, 'zero.json'), dir)).toEqual({ name: 'zero.json', refused: 'it is not a regular file' });
  });

  it('reads files and yukta:// links from a launch argv, skipping the app path and Chromium switches', () => {
    expect(launchRequest(['/opt/Yukta Studio/yukta', '--enable-features=x', '/w/a.yukta.json', 'yukta://approval/run-1/approve'], true)).toEqual({
      files: ['/w/a.yukta.json'],
      links: ['yukta://approval/run-1/approve'],
      ignored: [],
    });
    expect(launchRequest(['/x/electron', '.', 'b.json', '--inspect'], false)).toEqual({ files: ['b.json'], links: [], ignored: [] });
    expect(launchRequest(['/x/electron', '.', 'yukta://settings/evil'], false)).toEqual({ files: [], links: [], ignored: ['yukta://settings/evil'] });
  });

  it('holds files until the page listens, delivers refusals too, and keeps opened files in the recent list', () => {
    const dir = folder();
    const sent: unknown[] = [];
    const recent: string[] = [];
    const opener = createFileOpener({ recent: { add: (p) => recent.push(p), remove: () => undefined }, send: (_c, f) => sent.push(f), log: () => undefined });
    opener.open(['orders.yukta.json', '../x.json'], dir);
    expect(sent).toEqual([]);
    const page = { id: 1, send: () => undefined, isDestroyed: () => false, once: () => undefined };
    opener.ready(page);
    expect(sent).toEqual([
      { name: 'orders.yukta.json', text: JSON.stringify(WORKFLOW) },
      { name: 'x.json', refused: 'a path with ".." (path traversal) is refused; give the file itself' },
    ]);
    expect(recent).toEqual([join(dir, 'orders.yukta.json')]);
    opener.notReady();
    opener.open(['orders.yukta.json'], dir);
    expect(sent).toHaveLength(2);
    opener.ready(page);
    expect(sent).toHaveLength(3);
  });
});
