// The CLI's own operations, next to the handler table it otherwise goes through (main/handlers.ts).
import { followsByReceiptsOnly } from '../../common/domain/status';
import { noticingDiskFull } from '../handlers';
import { localProfileOps } from '../profiles/ops';
import { localSendOps } from '../send/ops';
import type { Services } from '../services';

/**
 * Operations only a caller in this process has (the CLI), never a window: profiles for this process
 * alone, waiting for a call's end, and the database set aside at open. Not in the contract.
 */
export function createLocalHandlers(services: Services) {
  return noticingDiskFull(
    {
      ...localProfileOps(services.profiles),
      ...localSendOps(services.calls),
      'app.recovered': async () => services.recovered,
      /** Whether this profile's calls can only be followed by the provider's receipts (said while a call waits). */
      'profiles.followsByReceiptsOnly': async ({ id }: { id: string }) => followsByReceiptsOnly(services.profiles.record(id)),
    },
    services,
  );
}
export type LocalHandlers = ReturnType<typeof createLocalHandlers>;
