// A real small disk for full-disk tests: a tmpfs of a few MB mounted on a temporary folder (needs
// root, as on our machines and CI). `fill()` takes every free byte (or all but some) with a filler file; `free()`
// gives them back. When mounting is refused the test says so and skips (the reason is returned).
import { execFileSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync, statSync, truncateSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface SmallDisk {
  dir: string;
  /** Takes every free byte, or all but about `leaveBytes` of them. */
  fill(leaveBytes?: number): void;
  free(): void;
  unmount(): void;
}

export function mountSmallDisk(sizeMb = 3): SmallDisk | { refused: string } {
  const dir = mkdtempSync(join(tmpdir(), 'callout-small-disk-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${sizeMb}m`, 'tmpfs', dir], { stdio: 'pipe' });
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    return { refused: `mount -t tmpfs was refused (${String((error as { stderr?: Buffer }).stderr ?? error).trim()})` };
  }
  const filler = join(dir, 'filler');
  return {
    dir,
    fill(leaveBytes = 0) {
      const fd = openSync(filler, 'a');
      const chunk = Buffer.alloc(16 * 1024, 0x61);
      try {
        for (;;) writeSync(fd, chunk);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
      } finally {
        closeSync(fd);
      }
      // The last few bytes too.
      const small = openSync(filler, 'a');
      try {
        for (;;) writeSync(small, Buffer.alloc(512, 0x61));
      } catch {
        // full
      } finally {
        closeSync(small);
      }
      if (leaveBytes > 0) truncateSync(filler, Math.max(0, statSync(filler).size - leaveBytes));
    },
    free() {
      rmSync(filler, { force: true });
    },
    unmount() {
      try {
        execFileSync('umount', ['-l', dir], { stdio: 'pipe' });
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
