// The CLI's own operations, next to the handler table it otherwise goes through (main/handlers.ts).
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
    { ...localProfileOps(services.profiles), ...localSendOps(services.calls), 'app.recovered': async () => services.store.recovered },
    services,
  );
}
export type LocalHandlers = ReturnType<typeof createLocalHandlers>;
