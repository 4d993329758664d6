// The one handler table: channel → (parsed input) → output. Used by ipcMain (main/ipc.ts), the
// browser transport and the CLI. Each feature folder exports its slice (`<feature>/ops.ts`), built
// from the narrow services it needs; here the slices are merged, checked at compile time against the
// contract's channels, and wrapped with what every operation shares.
import type { Channel, OutputOf, ParsedInputOf } from '../common/contract';
import { appOpsOf } from './app-ops';
import { bulkOpsOf } from './bulk/ops';
import { captureOpsOf } from './capture/ops';
import { dialOpsOf } from './dial/ops';
import { dialectOps } from './dialects/ops';
import { DialectTeacher } from './dialects/teacher';
import { isDiskFull } from './errors';
import { exchangeLookup } from './history/exchanges';
import { historyOpsOf } from './history/ops';
import { pagingHandlers } from './paging/ops';
import { ProfileLines } from './lines/profile-lines';
import { profileOps } from './profiles/ops';
import { ProfileChanges } from './profiles/profile-changes';
import { SANDBOX_PROFILE_ID } from './profiles/profile-service';
import { sandboxOpsOf } from './sandbox/ops';
import { sendOpsOf } from './send/ops';
import type { Services } from './services';
import { signatureOpsOf } from './signing/ops';
import { templateOps } from './templates/ops';
import { workbenchOpsOf } from './workbench/ops';

export type Handlers = { [C in Channel]: (input: ParsedInputOf<C>) => Promise<OutputOf<C>> };

function slices(services: Services) {
  const { profiles, calls, clock, dialSettings, exchanges, templates } = services;
  const exchange = exchangeLookup(services.history, services.archives.shelf);
  const changes = new ProfileChanges({
    profiles,
    syncReceipts: (id, opts) => services.receipts.sync(id, opts),
    reread: (id, dialect) => calls.reread(id, dialect).length,
    forgetRedialWait: (id) => dialSettings.forgetRedialWait(id),
    log: services.log,
  });
  const lines = new ProfileLines({ requireProfile: (id) => void profiles.record(id), settings: dialSettings, governors: services.governors });
  const teacher = new DialectTeacher({ exchange, exchanges, dialectOf: (id) => profiles.record(id).dialect, clock });
  const syncSandboxApprovals = () => void (services.sandbox && services.sandboxControl(SANDBOX_PROFILE_ID).syncLibrary());
  const history = {
    history: services.history,
    exchange,
    retention: services.retention,
    archives: services.archives,
    recovered: () => services.recovered,
    profiles,
    clipboard: services.clipboard,
    clock,
    version: services.version,
  };
  return {
    ...appOpsOf(services),
    ...profileOps({ profiles, changes, lines }),
    ...dialectOps(teacher),
    ...templateOps({ templates, syncSandboxApprovals }),
    ...sendOpsOf({ calls, sent: services.sent, profiles, clock }),
    ...historyOpsOf({ ...history, profileNames: () => profiles.records(), templateNames: () => templates.list() }),
    ...workbenchOpsOf({ workbench: services.workbench, saved: services.workbench.saved, exchange }),
    ...bulkOpsOf({ bulk: services.bulk, queue: services.queue, calls, emit: services.emit }),
    ...dialOpsOf({ contacts: services.contacts, dialer: services.dialer, settings: dialSettings }),
    ...sandboxOpsOf({ control: (id) => services.sandboxControl(id), demoAccount: () => profiles.sandboxDemoAccount() }),
    ...signatureOpsOf({ profiles, exchanges, clock }),
    ...captureOpsOf(services.capture),
    ...pagingHandlers(services),
  };
}

// The merged slices answer exactly the contract's channels: a missing or an extra one fails the type check.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const exactlyTheChannels: Same<keyof ReturnType<typeof slices>, Channel> = true;
void exactlyTheChannels;

/** A write that failed for lack of space, whichever operation ran into it, is said in the app (storageProblem). */
export function noticingDiskFull<T extends Record<string, (input: never) => Promise<unknown>>>(table: T, services: Pick<Services, 'noteStoreHealth'>): T {
  const wrapped: Record<string, (input: never) => Promise<unknown>> = {};
  for (const [name, handler] of Object.entries(table)) {
    wrapped[name] = async (input) => {
      try {
        return await handler(input);
      } catch (error) {
        if (isDiskFull(error)) services.noteStoreHealth(error);
        throw error;
      }
    };
  }
  return wrapped as T;
}

export function createHandlers(services: Services): Handlers {
  const table: Handlers = slices(services);
  return noticingDiskFull(table, services);
}
