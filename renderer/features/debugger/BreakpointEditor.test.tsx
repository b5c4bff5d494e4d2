// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { currentBreakpoints, useDebug, type Breakpoint } from '../../store/debug-store';
import { resetStores } from '../../test-support/reset-stores';
import { BreakpointEditor } from './BreakpointEditor';

beforeEach(() => {
  resetStores();
  useDebug.getState().setWorkflowKey('default/orders');
});
afterEach(cleanup);

/** The editor wired to the store the way the inspector wires it to the debug actions. */
function renderEditor() {
  const onChange = vi.fn((bp: Breakpoint | null) => useDebug.getState().setBreakpoint('x', bp));
  render(<BreakpointEditor nodeId="x" onChange={onChange} />);
  return { onChange, input: screen.getByTestId('breakpoint-condition') as HTMLInputElement };
}

describe('STU-04 breakpoint condition editor', () => {
  it('names a condition it cannot read under the field and applies nothing; Escape goes back', () => {
    const { onChange, input } = renderEditor();
    fireEvent.change(input, { target: { value: 'payload.n = 2' } });
    fireEvent.keyDown(input, { key: 'Enter' });
    expect(screen.getByTestId('breakpoint-condition-error').textContent).toContain('No "==" in the condition');
    expect(input.getAttribute('aria-invalid')).toBe('true');
    fireEvent.change(input, { target: { value: 'order.id == 2' } });
    fireEvent.click(screen.getByTestId('breakpoint-apply'));
    expect(screen.getByTestId('breakpoint-condition-error').textContent).toContain('must start with payload or metadata');
    expect(onChange).not.toHaveBeenCalled();
    fireEvent.keyDown(input, { key: 'Escape' });
    expect(input.value).toBe('');
    expect(screen.queryByTestId('breakpoint-condition-error')).toBeNull();
  });

  it('applies a valid condition (Enter): the breakpoint is set with it, shown normalised', () => {
    const { onChange, input } = renderEditor();
    fireEvent.change(input, { target: { value: 'payload.order.id=="42"' } });
    fireEvent.keyDown(input, { key: 'Enter' });
    expect(onChange).toHaveBeenCalledWith({ condition: { path: 'payload.order.id', equals: '42' } });
    expect(input.value).toBe('payload.order.id == 42');
    expect((screen.getByTestId('breakpoint-toggle') as HTMLInputElement).checked).toBe(true);
    expect(screen.getByTestId('breakpoint-editor').textContent).toContain('whose payload.order.id is "42"');
  });

  it('the checkbox sets a breakpoint without condition, and removes it', () => {
    const { onChange } = renderEditor();
    fireEvent.click(screen.getByTestId('breakpoint-toggle'));
    expect(onChange).toHaveBeenLastCalledWith({ condition: null });
    expect(currentBreakpoints(useDebug.getState())['x']).toEqual({ condition: null });
    expect(screen.getByTestId('breakpoint-editor').textContent).toContain('Stops before the next message');
    act(() => void fireEvent.click(screen.getByTestId('breakpoint-toggle')));
    expect(onChange).toHaveBeenLastCalledWith(null);
    expect(currentBreakpoints(useDebug.getState())['x']).toBeUndefined();
  });
});
