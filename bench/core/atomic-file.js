// Replaces a file so that a reader, or the next run after a crash, sees the old content or
// the new, never half of it: write a temporary file beside it, flush it to disk, rename it
// over the target (atomic within one file system, hence the same directory).
import { randomBytes } from 'node:crypto';
import { closeSync, fsyncSync, mkdirSync, openSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

// Flushes the directory entry too, so the rename itself survives a power loss; some
// platforms cannot open a directory for that, and the rename is then as durable as they allow.
function syncDirectory(directory) {
  let fd;
  try {
    fd = openSync(directory, 'r');
    fsyncSync(fd);
  } catch {
    // best effort, see above
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

export function writeFileAtomicSync(path, text) {
  const directory = dirname(path);
  mkdirSync(directory, { recursive: true });
  // Unique per call, so concurrent writers never share a temporary file.
  const temporary = join(directory, `.${basename(path)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  try {
    const fd = openSync(temporary, 'wx');
    try {
      // Not writeSync: it may write only part of the text (a full disk, a file size
      // limit) without an error; writeFileSync writes all of it or throws.
      writeFileSync(fd, text);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temporary, path);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw error;
  }
  syncDirectory(directory);
}
