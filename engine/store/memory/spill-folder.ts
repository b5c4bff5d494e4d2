import { appendFileSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { RecordedMessage } from '../checkpoint-store';
import { encodeName } from '../file/file-names';
import { readJsonl } from '../file/jsonl-lines';
import { parseRecordedMessage, recordedLine } from '../checkpoint-codec';

/**
 * The memory checkpoint store's spill folder (DUR-02): the output of a node past its caps, one JSONL file
 * per node under a folder per run. Emptied when it is opened (leftovers of an earlier process) and per
 * dropped run. Written synchronously: a node spills only once it is already large, and reads need it whole.
 */
export class SpillFolder {
  constructor(private readonly dir: string) {
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
  }

  move(executionId: string, nodeId: string, messages: readonly RecordedMessage[]): void {
    mkdirSync(join(this.dir, encodeName(executionId)), { recursive: true });
    appendFileSync(this.file(executionId, nodeId), messages.map(recordedLine).join(''));
  }

  append(executionId: string, nodeId: string, message: RecordedMessage): void {
    appendFileSync(this.file(executionId, nodeId), recordedLine(message));
  }

  read(executionId: string, nodeId: string): RecordedMessage[] {
    const path = this.file(executionId, nodeId);
    return readJsonl(path, readFileSync(path), parseRecordedMessage).records;
  }

  drop(executionId: string): void {
    rmSync(join(this.dir, encodeName(executionId)), { recursive: true, force: true });
  }

  private file(executionId: string, nodeId: string): string {
    return join(this.dir, encodeName(executionId), `${encodeName(nodeId)}.jsonl`);
  }
}
