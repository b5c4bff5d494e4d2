import type { WorkflowDefinition } from '../../shared/workflow/definition.schema';
import { toVersionId, type VersionId } from '../../shared/workflow/ids';
import { contentHash } from './content-hash';

/** Mints a definition's version (DEF-01): the content hash of its canonical graph. The one function that makes one (on save). */
export function definitionVersion(definition: WorkflowDefinition): VersionId {
  return toVersionId(contentHash(definition));
}
