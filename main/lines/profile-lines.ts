// A profile's lines: how many it bought, whether one is lent while its call waits for a redial, and
// whether a refusal stopped that lending. Kept in SQLite (dial settings), applied by the governors.
import type { ProfileLines as LinesView } from '../../common/contract';
import type { DialSettingsRepository } from '../store';
import type { GovernorRegistry } from './governor';
import { fail } from '../errors';

export interface ProfileLinesDeps {
  /** Throws not-found for a profile that does not exist. */
  requireProfile(id: string): void;
  settings: Pick<DialSettingsRepository, 'profileLines' | 'profileLending' | 'setProfileLines' | 'setProfileLending'>;
  governors: Pick<GovernorRegistry, 'lendingStoppedAt' | 'applyLending' | 'for'>;
}

export class ProfileLines {
  constructor(private readonly d: ProfileLinesDeps) {}

  view(id: string): LinesView {
    this.d.requireProfile(id);
    const lendingStoppedAt = this.d.governors.lendingStoppedAt(id);
    return {
      lines: this.d.settings.profileLines(id),
      lendLines: this.d.settings.profileLending(id),
      lendingStopped: lendingStoppedAt !== null,
      lendingStoppedAt,
    };
  }

  set(id: string, { lines, lendLines }: { lines?: number; lendLines?: boolean }): LinesView {
    this.d.requireProfile(id);
    // Kept in SQLite: a profile that lives only in this process's memory has nowhere to keep them.
    const saved =
      (lines === undefined || this.d.settings.setProfileLines(id, lines)) && (lendLines === undefined || this.d.settings.setProfileLending(id, lendLines));
    if (!saved) throw fail('not-found', { kind: 'profile', id });
    if (lendLines) this.d.governors.applyLending(id);
    else this.d.governors.for(id);
    return this.view(id);
  }
}
