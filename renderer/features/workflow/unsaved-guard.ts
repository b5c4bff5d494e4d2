import { confirmAction } from '../../components/confirm';
import { useStudio } from '../../store/studio-store';

/**
 * The guard against losing unsaved changes when the canvas is about to be replaced (another workflow,
 * another session, an import, a restore): true when there is nothing to lose or the user agrees.
 */
export async function confirmDiscard(studio: typeof useStudio = useStudio, why = 'Opening another workflow replaces the canvas.'): Promise<boolean> {
  const { dirty, workflowId } = studio.getState();
  if (!dirty) return true;
  return confirmAction({
    title: 'Discard unsaved changes?',
    message: `${why} The unsaved changes of "${workflowId || 'this new workflow'}" will be lost.`,
    confirmLabel: 'Discard changes',
    danger: true,
  });
}
