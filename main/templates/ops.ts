// The templates slice of the handler table: the library of texts a call speaks.
import type { TemplateView } from '../../common/contract';
import type { templatesOps } from '../../common/contract/templates';
import { parseTemplate } from '../../common/domain/templates';
import type { Ops } from '../ops';
import type { TemplateRecord, TemplateRepository } from '../store';

const templateView = (t: TemplateRecord): TemplateView => ({ ...t, markerCount: parseTemplate(t.content).markerCount });

export function templateOps(d: {
  templates: Pick<TemplateRepository, 'list' | 'save' | 'importAll' | 'remove'>;
  /** Brings the approvals of a review that ended in the Sandbox into the library (the Sandbox screen may be closed). */
  syncSandboxApprovals(): void;
}): Ops<typeof templatesOps> {
  const { templates } = d;
  return {
    'templates.list': async () => {
      d.syncSandboxApprovals();
      return templates.list().map(templateView);
    },
    'templates.save': async (input) => templateView(templates.save(input)),
    'templates.import': async ({ templates: list }) => templates.importAll(list),
    'templates.remove': async ({ id }) => ({ removed: templates.remove(id) }),
  };
}
