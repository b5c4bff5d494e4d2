import * as Tabs from '@radix-ui/react-tabs';
import type { ReactNode } from 'react';
import { MetricsPanel } from '../features/metrics/MetricsPanel';
import { useProblems } from '../store/problems-store';
import { useRunFeed } from '../store/run-feed-store';
import { useStudio } from '../store/studio-store';
import type { BottomTab } from '../store/ui-slice';

/** Bottom panel tabs (Radix Tabs, our component kit): Problems, Runs, Logs, Results, Timeline, Versions, Scheduler and Metrics (mounted only while open). */
export function BottomPanel({ problems, runs, logs, results, timeline, versions, scheduler, metrics = <MetricsPanel /> }: { problems: ReactNode; runs: ReactNode; logs: ReactNode; results: ReactNode; timeline: ReactNode; versions: ReactNode; scheduler: ReactNode; metrics?: ReactNode }) {
  const tab = useStudio((s) => s.bottomTab);
  const setTab = useStudio((s) => s.setBottomTab);
  const issueCount = useProblems((s) => s.issues.length);
  const errorCount = useProblems((s) => s.issues.filter((i) => i.severity === 'error').length);
  const runCount = useStudio((s) => s.runs.length);
  const versionCount = useStudio((s) => s.versions.length);
  const resultCount = useRunFeed((s) => s.results.items.length);
  return (
    <Tabs.Root className="bottom-panel" value={tab} onValueChange={(v) => setTab(v as BottomTab)}>
      <Tabs.List className="tabs-list" aria-label="Bottom panel">
        <Tabs.Trigger className="tab" value="problems" data-testid="problems-tab">
          Problems
          {issueCount > 0 && <span className={`tab-count${errorCount ? ' is-error' : ''}`}>{issueCount}</span>}
        </Tabs.Trigger>
        <Tabs.Trigger className="tab" value="runs" data-testid="runs-tab">
          Runs
          {runCount > 0 && <span className="tab-count">{runCount}</span>}
        </Tabs.Trigger>
        <Tabs.Trigger className="tab" value="logs" data-testid="logs-tab">
          Logs
        </Tabs.Trigger>
        <Tabs.Trigger className="tab" value="results" data-testid="results-tab">
          Results
          {resultCount > 0 && <span className="tab-count">{resultCount}</span>}
        </Tabs.Trigger>
        <Tabs.Trigger className="tab" value="timeline" data-testid="timeline-tab">
          Timeline
        </Tabs.Trigger>
        <Tabs.Trigger className="tab" value="versions" data-testid="versions-tab">
          Versions
          {versionCount > 0 && <span className="tab-count">{versionCount}</span>}
        </Tabs.Trigger>
        <Tabs.Trigger className="tab" value="scheduler" data-testid="scheduler-tab">
          Scheduler
        </Tabs.Trigger>
        <Tabs.Trigger className="tab" value="metrics" data-testid="metrics-tab">
          Metrics
        </Tabs.Trigger>
      </Tabs.List>
      <Tabs.Content className="tab-content" value="problems">
        {problems}
      </Tabs.Content>
      <Tabs.Content className="tab-content" value="runs">
        {runs}
      </Tabs.Content>
      <Tabs.Content className="tab-content" value="logs">
        {logs}
      </Tabs.Content>
      <Tabs.Content className="tab-content" value="results">
        {results}
      </Tabs.Content>
      <Tabs.Content className="tab-content" value="timeline">
        {timeline}
      </Tabs.Content>
      <Tabs.Content className="tab-content" value="versions">
        {versions}
      </Tabs.Content>
      <Tabs.Content className="tab-content" value="scheduler">
        {scheduler}
      </Tabs.Content>
      <Tabs.Content className="tab-content" value="metrics">
        {metrics}
      </Tabs.Content>
    </Tabs.Root>
  );
}
