import { z } from 'zod';
import { Identifier } from './identifier';

/**
 * Branded ids (issue 16): an execution id, a node id and a definition version are all strings on the wire,
 * but distinct types in code, so passing one where another is expected fails to compile. The brands are
 * types only (zod `.brand()` adds nothing at run time); a raw string becomes one by parsing it with the
 * schema, or — where the engine mints one — through the helpers at the end.
 */
export const ExecutionId = Identifier.brand<'ExecutionId'>();
export type ExecutionId = z.infer<typeof ExecutionId>;

/** A node of a workflow definition (DEF-02 identifier rules). */
export const NodeId = Identifier.brand<'NodeId'>();
export type NodeId = z.infer<typeof NodeId>;

/**
 * A definition version (DEF-01): the SHA-256 content hash of the canonical graph, 64 lowercase hex
 * characters. Checked at every boundary because it becomes a file name (`history/<version>.json`).
 */
export const VersionId = z
  .string()
  .regex(/^[0-9a-f]{64}$/, 'version must be 64 lowercase hex characters (a content hash)')
  .brand<'VersionId'>();
export type VersionId = z.infer<typeof VersionId>;

/*
 * The same brands on answers, without the input checks: answers were never checked as identifiers, and one
 * must parse exactly as before (the MCP resources parse answers). Wire format and JSON Schema: a plain string.
 */
/** An execution id the engine minted, in an answer (`runs.start`, `runs.resume`, a restart's new run). */
export const ExecutionIdOutput = z.string().brand<'ExecutionId'>();
/** A definition version the engine minted, in an answer (`workflows.save`, `workflows.restore`). */
export const VersionIdOutput = z.string().brand<'VersionId'>();

/*
 * Minting: the engine makes execution ids (`newExecutionId`, engine/runtime/start/execution-id.ts) and versions
 * (`definitionVersion`, engine/definitions/definition-version.ts, on save) and reads its own back; these two
 * are the only casts to a brand. Anything from outside the process is parsed by the schemas above instead.
 */
/** Brands a string the engine made or stored as an execution id. */
export function toExecutionId(raw: string): ExecutionId {
  return raw as ExecutionId;
}
/** Brands a content hash the engine computed, or stored, as a definition version. */
export function toVersionId(raw: string): VersionId {
  return raw as VersionId;
}
