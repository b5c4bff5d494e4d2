import type { RunSummary } from '../../../shared/api/runs.schema';
import type { Status } from '../../../shared/status/status';
import { STATUS_STYLES } from '../../components/status';

/** The run list's status filters (STU-03): groups of statuses a user thinks in. */
export const RUN_FILTERS = {
  all: { label: 'All', statuses: null },
  active: { label: 'Active', statuses: ['PENDING', 'QUEUED', 'RUNNING'] },
  succeeded: { label: 'Succeeded', statuses: ['SUCCESS'] },
  failed: { label: 'Failed', statuses: ['FAILURE', 'ERROR', 'TIMED_OUT', 'UPSTREAM_FAILED', 'ABORTED'] },
  stopped: { label: 'Stopped', statuses: ['STOPPED', 'CANCELLED', 'SKIPPED'] },
} as const satisfies Record<string, { label: string; statuses: readonly Status[] | null }>;

export type RunFilter = keyof typeof RUN_FILTERS;
export const RUN_FILTER_KEYS = Object.keys(RUN_FILTERS) as RunFilter[];

/**
 * The runs a filter and a search keep, in list order. The search matches, case-insensitively, the run id,
 * the definition version, the status (name or label) and the error message.
 */
export function filterRuns(runs: readonly RunSummary[], filter: RunFilter, search: string): RunSummary[] {
  const statuses: readonly Status[] | null = RUN_FILTERS[filter].statuses;
  const needle = search.trim().toLowerCase();
  return runs.filter((run) => (statuses === null || statuses.includes(run.status)) && (needle === '' || haystack(run).includes(needle)));
}

function haystack(run: RunSummary): string {
  return [run.executionId, run.definitionVersion, run.status, STATUS_STYLES[run.status].label, run.error?.message ?? ''].join('\u0000').toLowerCase();
}

/** How many runs each filter keeps (the chips show it). */
export function countByFilter(runs: readonly RunSummary[]): Record<RunFilter, number> {
  const out = Object.fromEntries(RUN_FILTER_KEYS.map((k) => [k, 0])) as Record<RunFilter, number>;
  for (const run of runs) {
    for (const key of RUN_FILTER_KEYS) {
      const statuses: readonly Status[] | null = RUN_FILTERS[key].statuses;
      if (statuses === null || statuses.includes(run.status)) out[key]++;
    }
  }
  return out;
}
