// @vitest-environment happy-dom
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { Status } from '../../shared/status/status';
import { ALL_STATUSES, STATUS_STYLES, StatusBadge, statusClassName } from './status';

afterEach(cleanup);

describe('STU-03 status map (UI.md: one map, never colour alone)', () => {
  it('has an entry with a colour, an icon and a text label for every Status', () => {
    expect(Object.keys(STATUS_STYLES).sort()).toEqual([...Status.options].sort());
    for (const status of ALL_STATUSES) {
      const style = STATUS_STYLES[status];
      expect(style.label.length).toBeGreaterThan(0);
      expect(style.color).toMatch(/^#[0-9a-f]{6}$/i);
      expect(style.icon).toBeTruthy();
    }
  });

  it('gives every status a distinct label', () => {
    const labels = ALL_STATUSES.map((s) => STATUS_STYLES[s].label);
    expect(new Set(labels).size).toBe(labels.length);
  });

  it('follows the UI.md colour families and cues', () => {
    expect(STATUS_STYLES.FAILURE.color).toBe(STATUS_STYLES.ERROR.color);
    expect(STATUS_STYLES.RUNNING.cue).toBe('pulse');
    expect(STATUS_STYLES.CANCELLED.cue).toBe('struck');
    expect(STATUS_STYLES.SKIPPED.cue).toBe('dashed');
    expect(statusClassName('CANCELLED')).toContain('status-cue-struck');
    expect(STATUS_STYLES.UPSTREAM_FAILED.color).not.toBe(STATUS_STYLES.FAILURE.color);
  });

  it('renders a badge with icon, label and data-status', () => {
    render(<StatusBadge status="UPSTREAM_FAILED" testId="badge" />);
    const badge = screen.getByTestId('badge');
    expect(badge.getAttribute('data-status')).toBe('UPSTREAM_FAILED');
    expect(badge.textContent).toBe('Upstream failed');
    expect(badge.querySelector('svg')).not.toBeNull();
  });
});
