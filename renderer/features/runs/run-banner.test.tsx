// @vitest-environment happy-dom
import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { useStudio } from '../../store/studio-store';
import { openStudio } from '../../test-support/open-app';

afterEach(cleanup);

describe('STU-03 run banner: the definition version a run used, diffed against the draft', () => {
  it('offers no diff while the canvas is that version; after an unsaved edit, "Diff with draft" draws run version → canvas', async () => {
    await openStudio('#/w/default/hello');
    await screen.findByTestId('node-print');
    fireEvent.click(screen.getByTestId('run-button'));
    const banner = await screen.findByTestId('run-banner');
    await waitFor(() => expect(screen.getByTestId('run-banner-version').textContent).toContain('(current)'));
    expect(screen.queryByTestId('run-banner-diff')).toBeNull();

    // An unsaved edit: the draft no longer matches the version the run used.
    act(() => useStudio.getState().edit({ kind: 'remove', nodeIds: ['print'], edgeIds: ['shape:out->print'] }));
    expect(banner.textContent).toContain('unsaved edits');
    fireEvent.click(screen.getByTestId('run-banner-diff'));

    await waitFor(() => expect(screen.getByTestId('canvas').getAttribute('data-mode')).toBe('diff'));
    expect(screen.getByTestId('node-print').getAttribute('data-diff')).toBe('removed');
    expect(screen.getByTestId('node-shape').getAttribute('data-diff')).toBe('unchanged');
    expect(screen.getByTestId('diff-banner').textContent).toContain('→ draft');
  });
});
