// Which process wrote a row (host:pid), so that a later start can tell a crash from work still in
// flight in another process (the app and the CLI share one database).
import { hostname } from 'node:os';

/** Identifies this process. */
export function processOwner(pid: number = process.pid): string {
  return `${hostname()}:${pid}`;
}

/** True when the process that wrote `owner` may still be running (another machine's is not ours to judge). */
export function ownerAlive(owner: string | null): boolean {
  if (!owner) return false;
  const [host, pidText] = owner.split(':');
  if (host !== hostname()) return true;
  const pid = Number(pidText);
  if (!Number.isInteger(pid) || pid <= 0) return false;
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
