// A profile's lines and whether they are lent while its calls wait for a redial: read, set, kept
// across a restart (so is a refusal that stopped lending), and followed by the profile's governor at once.
import { describe, expect, it } from 'vitest';
import { tempHome } from '../../helpers/temp-home';
import { rehearsal } from '../dialects/helpers';
import { closeStored, storedIn } from '../../helpers/stored';

describe("lending a profile's lines", () => {
  it('is on for a new profile; set off, the governor stops lending at once and it stays off after a restart', async () => {
    const home = tempHome();
    try {
      const first = await rehearsal({ home: home.dir });
      const { id } = first.profile;
      expect(await first.call('profiles.lines', { id })).toEqual({ lines: 1, lendLines: true, lendingStopped: false, lendingStoppedAt: null });
      expect(first.services.governors.for(id).snapshot().lending).toBe(true);

      expect(await first.call('profiles.setLines', { id, lendLines: false })).toEqual({
        lines: 1,
        lendLines: false,
        lendingStopped: false,
        lendingStoppedAt: null,
      });
      expect(first.services.governors.for(id).snapshot().lending).toBe(false);
      // Lines alone leave the lending as it is.
      expect(await first.call('profiles.setLines', { id, lines: 3 })).toEqual({ lines: 3, lendLines: false, lendingStopped: false, lendingStoppedAt: null });
      await expect(first.call('profiles.setLines', { id, lines: 0 })).rejects.toMatchObject({ code: 'invalid-input' });
      await expect(first.call('profiles.lines', { id: 'nobody' })).rejects.toMatchObject({ code: 'not-found', params: { kind: 'profile' } });
      await first.services.close();

      const again = await rehearsal({ home: home.dir });
      expect(await again.call('profiles.lines', { id })).toEqual({ lines: 3, lendLines: false, lendingStopped: false, lendingStoppedAt: null });
      expect(again.services.governors.for(id).snapshot()).toMatchObject({ lending: false, limits: { concurrency: 60 } });
      expect(await again.call('profiles.setLines', { id, lendLines: true })).toEqual({
        lines: 3,
        lendLines: true,
        lendingStopped: false,
        lendingStoppedAt: null,
      });
      expect(again.services.governors.for(id).snapshot().lending).toBe(true);

      // Set by another process (the CLI while the app runs): the governor follows at its next start.
      const other = storedIn(home.dir);
      other.dialSettings.setProfileLending(id, false);
      expect(again.services.governors.for(id).snapshot().lending).toBe(false);
      other.dialSettings.setProfileLending(id, true);
      expect(again.services.governors.for(id).snapshot().lending).toBe(true);

      // The provider refuses a send that started on a lent line: lending stops, and the profile says so.
      const g = again.services.governors.for(id);
      const held = await g.acquire();
      held.holds(1);
      // The services' clock runs sped up (a rehearsal's): times are read on it, not the wall clock.
      const clock = again.services.clock;
      g.lend(1, clock.now() + 60_000);
      const before = clock.now();
      g.tryAcquire()!.refused();
      const stopped = await again.call('profiles.lines', { id });
      expect(stopped).toMatchObject({ lines: 3, lendLines: true, lendingStopped: true });
      expect(stopped.lendingStoppedAt).toBeGreaterThanOrEqual(before);
      expect(stopped.lendingStoppedAt).toBeLessThanOrEqual(clock.now());
      held.release();
      await again.services.close();

      // Kept with the profile: after a restart lending is still stopped, and says since when.
      const third = await rehearsal({ home: home.dir });
      expect(await third.call('profiles.lines', { id })).toEqual({ ...stopped });
      expect(third.services.governors.for(id).snapshot()).toMatchObject({ lending: false, lendingRefused: true });
      // Lines alone leave it as it is; a second refusal (another process) keeps the first one's time;
      // set off, lending stays stopped underneath.
      expect(await third.call('profiles.setLines', { id, lines: 2 })).toEqual({ ...stopped, lines: 2 });
      expect(other.dialSettings.setLendingRefusedAt(id, stopped.lendingStoppedAt! + 5_000)).toBe(true);
      expect(other.dialSettings.lendingRefusedAt(id)).toBe(stopped.lendingStoppedAt);
      expect(await third.call('profiles.setLines', { id, lendLines: false })).toEqual({ ...stopped, lines: 2, lendLines: false });
      // A person sets it to lend again: lending resumes, here and after the next restart.
      expect(await third.call('profiles.setLines', { id, lendLines: true })).toEqual({
        lines: 2,
        lendLines: true,
        lendingStopped: false,
        lendingStoppedAt: null,
      });
      expect(third.services.governors.for(id).snapshot().lending).toBe(true);
      expect(other.dialSettings.lendingRefusedAt(id)).toBeNull();

      // The redial wait learned on it is kept until the profile is removed.
      other.dialSettings.saveRedialWait(id, { at: 10, spread: 0.5, samples: 4 });
      expect(other.dialSettings.learnedRedialWait(id)).toEqual({ at: 10, spread: 0.5, samples: 4 });
      await third.call('profiles.remove', { id });
      expect(other.dialSettings.learnedRedialWait(id)).toBeNull();
      await third.services.close();
    } finally {
      closeStored();
      home.cleanup();
    }
  });
});
