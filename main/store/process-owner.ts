// Which process wrote a row (host:pid, and on Linux the process's start mark), so that a later start
// can tell a crash from work still in flight in another process (the app and the CLI share one
// database). The start mark (boot id and the process's start tick) tells a dead process from a later
// one that was given the same pid, after a reboot or a wrap of the pid counter.
import { readFileSync } from 'node:fs';
import { hostname } from 'node:os';

/** This boot's id (Linux), read once; '' where the system does not say. */
const BOOT_ID = (() => {
  try {
    return readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim().slice(0, 8);
  } catch {
    return '';
  }
})();

/** "boot.start-tick" of a running process (Linux /proc), or '' where that cannot be read (no such process, another OS). */
function startMark(pid: number): string {
  if (!BOOT_ID) return '';
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Field 22 (starttime) counts from after the command name, which is in parentheses and may hold spaces.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const start = fields[19];
    return start && /^\d+$/.test(start) ? `${BOOT_ID}.${start}` : '';
  } catch {
    return '';
  }
}

/** Identifies this process (or a running one by its pid). */
export function processOwner(pid: number = process.pid): string {
  const mark = startMark(pid);
  return mark ? `${hostname()}:${pid}:${mark}` : `${hostname()}:${pid}`;
}

/** True when a process with that pid runs on this machine (one of another user's too). */
export function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** True when the process that wrote `owner` may still be running (another machine's is not ours to judge). */
export function ownerAlive(owner: string | null): boolean {
  if (!owner) return false;
  const [host, pidText, mark] = owner.split(':');
  if (host !== hostname()) return true;
  const pid = Number(pidText);
  if (!Number.isInteger(pid) || pid <= 0) return false;
  if (pid === process.pid) return !mark || mark === startMark(pid);
  if (!pidAlive(pid)) return false;
  // A process with that pid runs: the same one only if it started when the owner's did.
  if (!mark) return true;
  const now = startMark(pid);
  return !now || now === mark;
}
