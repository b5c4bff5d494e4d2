import { useEffect } from 'react';
import type { StudioClient } from '../../../shared/api/client';
import { createEventCoalescer, type FrameScheduler } from '../../api/event-coalescer';
import { useStudio } from '../../store/studio-store';
import { applyStudioEvents, LIVE_EVENT_TYPES } from '../runs/apply-events';
import { parseWorkflowHash } from './hash-route';
import type { StudioActions } from './workflow-actions';

/**
 * Startup: node types, the workflow list, the workflow named in the URL hash, and one live event
 * subscription whose batches are applied at most once per animation frame.
 */
export function useStudioStartup(api: StudioClient, actions: StudioActions, schedule?: FrameScheduler): void {
  useEffect(() => {
    const coalescer = createEventCoalescer((events) => applyStudioEvents(events), schedule);
    const unsubscribe = api.subscribe({ type: [...LIVE_EVENT_TYPES] }, (batch) => coalescer.push(batch));
    void actions.loadCatalog();
    void actions.refreshWorkflows();
    const route = parseWorkflowHash(window.location.hash);
    if (route) void actions.openWorkflow(route.session, route.workflowId);

    // Back/forward or an edited address bar opens the named workflow.
    const onHashChange = () => {
      const next = parseWorkflowHash(window.location.hash);
      const state = useStudio.getState();
      if (!next || (next.session === state.session && next.workflowId === state.storedWorkflowId)) return;
      if (state.dirty && !window.confirm('Discard the unsaved changes of this workflow?')) return;
      void actions.openWorkflow(next.session, next.workflowId);
    };
    window.addEventListener('hashchange', onHashChange);
    return () => {
      window.removeEventListener('hashchange', onHashChange);
      unsubscribe();
      coalescer.dispose();
    };
  }, [api, actions, schedule]);
}

/** Ctrl/Cmd+S saves, F5 runs (UI.md keyboard map). */
export function useStudioShortcuts(actions: StudioActions): void {
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if ((e.ctrlKey || e.metaKey) && !e.shiftKey && !e.altKey && e.key.toLowerCase() === 's') {
        e.preventDefault();
        void actions.save();
      } else if (e.key === 'F5' && !e.shiftKey && !e.ctrlKey && !e.metaKey) {
        e.preventDefault();
        void actions.run();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [actions]);
}
