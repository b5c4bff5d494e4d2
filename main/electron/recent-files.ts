/**
 * File → Open recent (STU-08): the workflow files opened lately, newest first, in `<userData>/recent-files.json`.
 * Only paths that were opened successfully are kept; a path that is gone is dropped when it fails to open.
 */
import { join } from 'node:path';
import { z } from 'zod';
import { readJsonFile, writeJsonFileAtomic } from '../host/json-file';

export const RECENT_FILES_FILE = 'recent-files.json';
export const MAX_RECENT_FILES = 8;

const Recent = z.array(z.string().min(1).max(4096)).max(100);

export class RecentFiles {
  private readonly file: string;
  private paths: string[];

  constructor(userData: string) {
    this.file = join(userData, RECENT_FILES_FILE);
    let raw: unknown = null;
    try {
      raw = readJsonFile(this.file);
    } catch {
      // An unreadable list starts empty.
    }
    const parsed = Recent.safeParse(raw);
    this.paths = parsed.success ? parsed.data.slice(0, MAX_RECENT_FILES) : [];
  }

  list(): readonly string[] {
    return this.paths;
  }

  add(path: string): void {
    this.paths = [path, ...this.paths.filter((p) => p !== path)].slice(0, MAX_RECENT_FILES);
    this.save();
  }

  remove(path: string): void {
    this.paths = this.paths.filter((p) => p !== path);
    this.save();
  }

  clear(): void {
    this.paths = [];
    this.save();
  }

  private save(): void {
    try {
      writeJsonFileAtomic(this.file, this.paths);
    } catch {
      // The menu keeps the list for this session; the next launch starts from the last saved one.
    }
  }
}
