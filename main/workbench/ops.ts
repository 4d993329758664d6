// The workbench slice of the handler table: the raw client, collections, environments and runs.
import type { workbenchOps } from '../../common/contract/workbench';
import type { ExchangeLookup } from '../history/exchanges';
import type { Ops } from '../ops';
import type { WorkbenchRepository } from '../store';
import type { WorkbenchService } from './workbench-service';

type Saved = Pick<
  WorkbenchRepository,
  | 'listCollections'
  | 'collection'
  | 'saveCollection'
  | 'removeCollection'
  | 'saveRequest'
  | 'removeRequest'
  | 'listEnvironments'
  | 'removeEnvironment'
  | 'listRuns'
  | 'run'
>;

export function workbenchOpsOf(d: { workbench: WorkbenchService; saved: Saved; exchange: ExchangeLookup }): Ops<typeof workbenchOps> {
  const { workbench, saved, exchange } = d;
  return {
    'raw.send': async ({ request, assertions, ...scope }) => workbench.send(request, scope, assertions),
    'raw.preview': async ({ request, ...scope }) => workbench.preview(request, scope),
    'raw.import': async ({ profileId, text }) => workbench.importText(text, profileId),
    'raw.fromExchange': async ({ id, archive }) => workbench.fromExchange(exchange(id, archive)),
    'raw.code': async ({ request, target, ...scope }) => ({ code: await workbench.code(request, scope, target) }),
    'raw.copyCodeWithKey': async ({ request, target, confirm: _confirm, ...scope }) => {
      await workbench.copyCodeWithKey(request, scope, target);
      return { copied: true as const };
    },

    'collections.list': async () => saved.listCollections(),
    'collections.get': async ({ id }) => saved.collection(id),
    'collections.save': async (input) => saved.saveCollection(input),
    'collections.remove': async ({ id }) => ({ removed: saved.removeCollection(id) }),
    'collections.saveRequest': async (input) => saved.saveRequest(input),
    'collections.removeRequest': async ({ id }) => ({ removed: saved.removeRequest(id) }),
    'collections.import': async ({ text, name }) => workbench.importFile(text, name),
    'collections.export': async ({ id }) => workbench.exportFile(id),
    'collections.run': async (input) => workbench.run(input),
    'environments.list': async () => saved.listEnvironments(),
    'environments.save': async (input) => workbench.saveEnvironment(input),
    'environments.remove': async ({ id }) => ({ removed: saved.removeEnvironment(id) }),
    'runs.list': async (input) => saved.listRuns(input ?? {}),
    'runs.get': async ({ id }) => saved.run(id),
  };
}
