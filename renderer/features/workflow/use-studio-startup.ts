import { useEffect } from 'react';
import type { StudioClient } from '../../../shared/api/client';
import { createEventCoalescer, type FrameScheduler } from '../../api/event-coalescer';
import { parseApprovalLink } from '../../../shared/api/approval-notice';
import { approvalKey } from '../../store/inbox-store';
import { useStudio } from '../../store/studio-store';
import { applyStudioEvents, LIVE_EVENT_TYPES } from '../runs/apply-events';
import { parseSessionHash, parseWorkflowHash, replaceWorkflowHash } from './hash-route';
import { confirmDiscard } from './unsaved-guard';
import type { StudioActions } from './workflow-actions';

/**
 * Startup: node types, the workflow list, the workflow named in the URL hash, and one live event
 * subscription whose batches are applied at most once per animation frame.
 */
export function useStudioStartup(api: StudioClient, actions: StudioActions, schedule?: FrameScheduler): void {
  useEffect(() => {
    const hooks = { controlChanged: () => void actions.refreshControl(), approvalsChanged: actions.approvalsChanged };
    const coalescer = createEventCoalescer((events) => applyStudioEvents(events, hooks), schedule);
    const unsubscribe = api.subscribe({ type: [...LIVE_EVENT_TYPES] }, (batch) => coalescer.push(batch));
    void actions.loadCatalog();
    void actions.refreshSessions();
    void actions.refreshApprovals();
    openLinkedApproval(actions);
    const route = parseWorkflowHash(window.location.hash);
    const sessionOnly = route ? null : parseSessionHash(window.location.hash);
    if (route) void actions.openWorkflow(route.session, route.workflowId);
    else if (sessionOnly) actions.newWorkflow(sessionOnly);
    void actions.refreshWorkflows();

    // Back/forward or an edited address bar opens the named workflow.
    const onHashChange = async () => {
      if (openLinkedApproval(actions)) return;
      const next = parseWorkflowHash(window.location.hash);
      const state = useStudio.getState();
      if (!next || (next.session === state.session && next.workflowId === state.storedWorkflowId)) return;
      if (!(await confirmDiscard())) {
        // Stay on the open workflow, and say so in the address bar.
        if (state.storedWorkflowId) replaceWorkflowHash({ session: state.session, workflowId: state.storedWorkflowId });
        return;
      }
      void actions.openWorkflow(next.session, next.workflowId);
    };
    const onHash = () => void onHashChange();
    window.addEventListener('hashchange', onHash);
    return () => {
      window.removeEventListener('hashchange', onHash);
      unsubscribe();
      coalescer.dispose();
    };
  }, [api, actions, schedule]);
}

/**
 * An inbox link (`#/inbox/<run>/<node>/<message>`, from a notification) opens the inbox at that approval;
 * the address goes back to the open workflow. True when the hash was such a link.
 */
function openLinkedApproval(actions: StudioActions): boolean {
  const link = parseApprovalLink(window.location.hash);
  if (!link) return false;
  const { session, storedWorkflowId } = useStudio.getState();
  replaceWorkflowHash(storedWorkflowId ? { session, workflowId: storedWorkflowId } : null);
  void actions.openApproval(approvalKey(link));
  return true;
}

/**
 * Warns before the page is closed or reloaded with unsaved changes. Switching workflow, session, importing
 * and restoring ask through `confirmDiscard` instead.
 */
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
