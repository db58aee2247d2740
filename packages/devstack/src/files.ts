import { closeSync, fsyncSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import path from 'node:path';

/**
 * Writes a file so that a reader sees either the old content or the whole new content, never a half-written
 * one: a temporary file in the same folder, flushed, then renamed over the target (rename is atomic within
 * one file system).
 */
export function writeFileAtomic(file: string, content: string, mode = 0o600): void {
  const temporary = path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.tmp`);
  const fd = openSync(temporary, 'w', mode);
  try {
    writeSync(fd, content);
    fsyncSync(fd);
  } catch (error) {
    closeSync(fd);
    rmSync(temporary, { force: true });
    throw error;
  }
  closeSync(fd);
  renameSync(temporary, file);
}
