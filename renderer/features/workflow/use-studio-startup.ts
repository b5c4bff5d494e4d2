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

/** Ctrl/Cmd+S saves, F5 runs, Ctrl/Cmd+Z / Shift+Z (or Ctrl+Y) undo/redo graph edits (UI.md keyboard map). */
export function useStudioShortcuts(actions: StudioActions): void {
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const mod = e.ctrlKey || e.metaKey;
      const key = e.key.toLowerCase();
      if (mod && !e.shiftKey && !e.altKey && key === 's') {
        e.preventDefault();
        void actions.save();
      } else if (e.key === 'F5' && !e.shiftKey && !mod) {
        e.preventDefault();
        void actions.run();
      } else if (mod && !e.altKey && (key === 'z' || key === 'y') && !isTextField(e.target)) {
        // Text fields keep their own undo; elsewhere undo applies to the graph.
        e.preventDefault();
        if (key === 'y' || e.shiftKey) useStudio.getState().redo();
        else useStudio.getState().undo();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [actions]);
}

/** Warns before the page is closed or reloaded with unsaved changes. */
export function useUnsavedChangesGuard(): void {
  useEffect(() => {
    const onBeforeUnload = (e: BeforeUnloadEvent) => {
      if (!useStudio.getState().dirty) return;
      e.preventDefault();
      e.returnValue = '';
    };
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => window.removeEventListener('beforeunload', onBeforeUnload);
  }, []);
}

function isTextField(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return target.isContentEditable || target.tagName === 'INPUT' || target.tagName === 'TEXTAREA' || target.tagName === 'SELECT';
}
