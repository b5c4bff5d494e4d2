import { describe, expect, it } from 'vitest';
import { openApprovalDeepLink } from './approval-links';
import { approvalDeepLink, parseDeepLink } from './deep-link';

describe('STU-08 yukta:// deep links, parsed strictly', () => {
  it('accepts yukta://approval/<execution>/<node> with identifier ids (percent-encoded ones decoded)', () => {
    expect(parseDeepLink('yukta://approval/run-1/approve')).toEqual({ kind: 'approval', executionId: 'run-1', nodeId: 'approve' });
    expect(parseDeepLink('YUKTA://approval/r/n')).toEqual({ kind: 'approval', executionId: 'r', nodeId: 'n' });
    expect(parseDeepLink('yukta://approval/run%201/wait%3Aok')).toEqual({ kind: 'approval', executionId: 'run 1', nodeId: 'wait:ok' });
    expect(parseDeepLink(approvalDeepLink({ executionId: 'e:1', nodeId: 'n@2' }))).toEqual({ kind: 'approval', executionId: 'e:1', nodeId: 'n@2' });
  });

  it('refuses everything else: other schemes and hosts, extra parts, dot segments, encoded separators, user/port/query/fragment, oversize', () => {
    const refused = [
      'javascript:alert(1)',
      'https://approval/run/node',
      'file:///etc/passwd',
      'yukta:approval/run/node',
      'yukta://settings/run/node',
      'yukta://approval/run',
      'yukta://approval/run/node/extra',
      'yukta://approval/run/node/',
      'yukta://approval//node',
      'yukta://approval/../node',
      'yukta://approval/x/y/%2e%2e/n',
      'yukta://approval/%2e%2e/n',
      'yukta://approval/./n',
      'yukta://approval/a%2Fb/n',
      'yukta://approval/a%5Cb/n',
      'yukta://approval/%00/n',
      'yukta://approval/%E0%A4%A/n',
      'yukta://user@approval/r/n',
      'yukta://approval:99/r/n',
      'yukta://approval/r/n?x=1',
      'yukta://approval/r/n#top',
      `yukta://approval/${'a'.repeat(129)}/n`,
      `yukta://approval/r/${'%41'.repeat(700)}`,
      '',
    ];
    for (const link of refused) expect(parseDeepLink(link), link).toBeNull();
  });

  it("opens the inbox at the link's oldest open approval; a link naming none, or a bad one, is logged and ignored", async () => {
    const approvals = [
      { executionId: 'run-1', nodeId: 'approve', messageId: 'm1', session: 'default', workflowId: 'orders', signal: 'approval', since: 1, payload: {} },
      { executionId: 'run-1', nodeId: 'approve', messageId: 'm2', session: 'default', workflowId: 'orders', signal: 'approval', since: 2, payload: {} },
    ];
    const opened: string[] = [];
    const logged: string[] = [];
    const deps = { listApprovals: async () => approvals, openHash: (h: string) => opened.push(h), log: (m: string) => logged.push(m) };
    expect(await openApprovalDeepLink('yukta://approval/run-1/approve', deps)).toBe('opened');
    expect(opened).toEqual(['#/inbox/run-1/approve/m1']);
    expect(await openApprovalDeepLink('yukta://approval/run-2/approve', deps)).toBe('not-open');
    expect(await openApprovalDeepLink('javascript:alert(document.cookie)', deps)).toBe('ignored');
    expect(opened).toHaveLength(1);
    expect(logged).toEqual([expect.stringContaining('names no open approval'), expect.stringContaining('ignored link javascript:alert(document.cookie)')]);
  });
});
