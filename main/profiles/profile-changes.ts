// What changing a profile means for the rest of Callout: its receipt listener starts or stops, the
// calls it placed are read again with a new dialect, a removed profile's learned redial wait goes.
import type { Dialect } from '../../common/dialects';
import type { FollowMode, ProfileView } from '../../common/contract';
import type { ProfileService } from './profile-service';

export interface ProfileChangesDeps {
  profiles: ProfileService;
  /** Starts or stops a profile's receipt listener to match its settings. */
  syncReceipts(id: string, opts?: { strict?: boolean }): Promise<void>;
  /** Reads again the calls of a profile whose dialect changed; how many were read. */
  reread(id: string, dialect: Dialect): number;
  forgetRedialWait(id: string): void;
  log(error: unknown): void;
}

export class ProfileChanges {
  constructor(private readonly d: ProfileChangesDeps) {}

  async remove(id: string): Promise<boolean> {
    const removed = await this.d.profiles.remove(id);
    // Its receipt listener (if any) stops: nothing can be received for a profile that is gone.
    await this.d.syncReceipts(id);
    if (removed) this.d.forgetRedialWait(id);
    return removed;
  }

  async setDialect(id: string, dialect: { builtin: string } | { custom: Dialect }): Promise<{ profile: ProfileView; reread: number }> {
    const { profiles } = this.d;
    const record = profiles.setDialect(id, 'builtin' in dialect ? { builtin: dialect.builtin } : { custom: dialect.custom });
    // A dialect without a status query moved the profile to receipts: its listener starts.
    await this.d.syncReceipts(id).catch((e: unknown) => this.d.log(e));
    const reread = this.d.reread(id, record.dialect);
    return { profile: await profiles.view(profiles.record(id)), reread };
  }

  async setFollow(id: string, s: { follow: FollowMode; host?: string; port?: number; newSecret?: boolean }): Promise<ProfileView> {
    this.d.profiles.setFollow(id, s);
    await this.d.syncReceipts(id, { strict: true });
    return this.d.profiles.view(this.d.profiles.record(id));
  }
}
