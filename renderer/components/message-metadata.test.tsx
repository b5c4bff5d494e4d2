// @vitest-environment happy-dom
import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { MessageMetadata, signalOutcome } from './MessageMetadata';

describe('CTL-05 approval outcome readable (issue 15 item 9)', () => {
  it('reads decision, actor and data (JSON text parsed back to a value)', () => {
    expect(
      signalOutcome({ 'signal.name': 'approve', 'signal.decision': 'REJECTED', 'signal.actor': 'key:ops', 'signal.data': '{"reason":"too big","limit":500}' }),
    ).toEqual({
      name: 'approve',
      decision: 'REJECTED',
      actor: 'key:ops',
      data: { reason: 'too big', limit: 500 },
    });
    expect(signalOutcome({ trace: 'x' })).toBeNull();
    expect(signalOutcome({ 'signal.decision': 'APPROVED', 'signal.data': 'not json' })?.data).toBe('not json');
  });

  it('draws the outcome first, the data as a tree, then the other keys', () => {
    render(
      <MessageMetadata
        testId="md"
        metadata={{ 'signal.name': 'approve', 'signal.decision': 'APPROVED', 'signal.actor': 'ada', 'signal.data': '{"by":"ada"}', region: 'eu' }}
      />,
    );
    expect(screen.getByTestId('md-signal').textContent).toContain('Approved by ada · signal “approve”');
    expect(screen.getByTestId('md-signal').textContent).toContain('by: "ada"');
    expect(screen.getByTestId('md').textContent).toContain('region: "eu"');
    expect(screen.getByTestId('md').textContent).not.toContain('\\"by\\"');
  });
});
