// Who wrote a row: a process that died and whose pid another process now has is not alive.
import { spawnSync } from 'node:child_process';
import { hostname } from 'node:os';
import { describe, expect, it } from 'vitest';
import { ownerAlive, processOwner } from '../../../main/store/process-owner';

const linux = process.platform === 'linux';

describe('the owner of a row', () => {
  it('is this process, alive, and a live parent is alive too', () => {
    expect(ownerAlive(processOwner())).toBe(true);
    expect(ownerAlive(processOwner(process.ppid))).toBe(true);
  });

  it('a process that has ended is not alive', () => {
    const deadPid = Number(spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']).stdout.toString());
    expect(ownerAlive(processOwner(deadPid))).toBe(false);
  });

  it.runIf(linux)('carries the start mark, so a later process given the same pid is not taken for the dead one', () => {
    const mine = processOwner();
    expect(mine.split(':')).toHaveLength(3);
    const [host, pid, mark] = mine.split(':') as [string, string, string];
    const [boot] = mark.split('.');
    // The same pid, started at another moment: the one that wrote the row is gone.
    expect(ownerAlive(`${host}:${process.ppid}:${boot}.1`)).toBe(false);
    expect(ownerAlive(`${host}:${pid}:${boot}.1`)).toBe(false);
    // Another boot: whatever runs under that pid now is another process.
    expect(ownerAlive(`${host}:${process.ppid}:00000000.${processOwner(process.ppid).split('.')[1]}`)).toBe(false);
  });

  it('rows written before start marks existed are judged by the pid alone', () => {
    expect(ownerAlive(`${hostname()}:${process.ppid}`)).toBe(true);
  });

  it("another machine's process is not ours to judge", () => {
    expect(ownerAlive('some-other-host.example:1:x.1')).toBe(true);
  });
});
