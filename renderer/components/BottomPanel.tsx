import * as Tabs from '@radix-ui/react-tabs';
import type { ReactNode } from 'react';
import { MetricsPanel } from '../features/metrics/MetricsPanel';
import { useDebug, currentBreakpoints } from '../store/debug-store';
import { useProblems } from '../store/problems-store';
import { useRunFeed } from '../store/run-feed-store';
import { useStudio } from '../store/studio-store';
import type { BottomTab } from '../store/ui-slice';
import { PanelResizer, useBottomPanelHeight } from './panel-resizer';

type Panels = { [K in BottomTab]: ReactNode };

const TABS: ReadonlyArray<{ value: BottomTab; label: string }> = [
  { value: 'problems', label: 'Problems' },
  { value: 'runs', label: 'Runs' },
  { value: 'logs', label: 'Logs' },
  { value: 'results', label: 'Results' },
  { value: 'timeline', label: 'Timeline' },
  { value: 'versions', label: 'Versions' },
  { value: 'breakpoints', label: 'Breakpoints' },
  { value: 'scheduler', label: 'Scheduler' },
  { value: 'metrics', label: 'Metrics' },
  { value: 'audit', label: 'Audit' },
];

/**
 * Bottom panel tabs (Radix Tabs, our component kit), each mounted only while open; its top edge drags (or
 * arrow keys) to resize it, and the height is remembered.
 */
export function BottomPanel(props: Omit<Panels, 'metrics'> & { metrics?: ReactNode }) {
  const panels: Panels = { ...props, metrics: props.metrics ?? <MetricsPanel /> };
  const tab = useStudio((s) => s.bottomTab);
  const setTab = useStudio((s) => s.setBottomTab);
  const counts = useTabCounts();
  const [height, setHeight] = useBottomPanelHeight();
  return (
    <Tabs.Root className="bottom-panel" value={tab} onValueChange={(v) => setTab(v as BottomTab)} style={{ height }}>
      <PanelResizer height={height} onResize={setHeight} />
      <Tabs.List className="tabs-list" aria-label="Bottom panel">
        {TABS.map(({ value, label }) => (
          <Tabs.Trigger key={value} className="tab" value={value} data-testid={`${value}-tab`}>
            {label}
            {counts[value] ? <span className={`tab-count${value === 'problems' && counts.errors ? ' is-error' : ''}`}>{counts[value]}</span> : null}
          </Tabs.Trigger>
        ))}
      </Tabs.List>
      {TABS.map(({ value }) => (
        <Tabs.Content key={value} className="tab-content" value={value}>
          {panels[value]}
        </Tabs.Content>
      ))}
    </Tabs.Root>
  );
}

function useTabCounts(): Partial<Record<BottomTab, number>> & { errors: number } {
  const problems = useProblems((s) => s.issues.length);
  const errors = useProblems((s) => s.issues.filter((i) => i.severity === 'error').length);
  const runs = useStudio((s) => s.runs.length);
  const versions = useStudio((s) => s.versions.length);
  const results = useRunFeed((s) => s.results.items.length);
  const breakpoints = useDebug((s) => Object.keys(currentBreakpoints(s)).length);
  return { problems, errors, runs, versions, results, breakpoints };
}
