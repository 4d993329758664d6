// The profiles slice of the handler table: profiles, their keys, dialect, following and lines.
import type { profilesOps } from '../../common/contract/profiles';
import type { Ops } from '../ops';
import type { ProfileLines } from '../lines/profile-lines';
import type { ProfileChanges } from './profile-changes';
import type { ProcessOverrides, ProfileService } from './profile-service';

export function profileOps(d: { profiles: ProfileService; changes: ProfileChanges; lines: ProfileLines }): Ops<typeof profilesOps> {
  const { profiles, changes, lines } = d;
  return {
    'profiles.list': () => profiles.list(),
    'profiles.save': (input) => profiles.save(input),
    'profiles.remove': async ({ id }) => ({ removed: await changes.remove(id) }),
    'profiles.setKey': ({ id, apiKey }) => profiles.setKey(id, apiKey),
    'profiles.deleteKey': ({ id }) => profiles.deleteKey(id),
    'profiles.setDialect': ({ id, dialect }) => changes.setDialect(id, dialect),
    'profiles.setFollow': ({ id, follow, host, port, newSecret }) => changes.setFollow(id, { follow, host, port, newSecret }),
    'profiles.lines': async ({ id }) => lines.view(id),
    'profiles.setLines': async ({ id, lines: n, lendLines }) => lines.set(id, { lines: n, lendLines }),
  };
}

/** Operations only a caller in this process has (the CLI): profiles for this process alone. No window reaches them. */
export function localProfileOps(profiles: ProfileService) {
  return {
    'profiles.overrideForProcess': ({ id, ...o }: { id: string } & ProcessOverrides) => profiles.overrideForProcess(id, o),
    'profiles.registerForProcess': async ({ record, apiKey }: { record: Parameters<ProfileService['registerEphemeral']>[0]; apiKey: string }) =>
      profiles.registerEphemeral(record, apiKey),
  };
}
