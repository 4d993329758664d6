// What screens call when templates changed elsewhere (the demo templates added, an import, the
// Sandbox's approvals): every template list on screen loads again. Its own module, so that what
// use-templates.ts uses (the demo templates) can call it too.
import { queryClient, templateKeys } from '../../app/query';

/** Has every template list on screen loaded again. */
export function templatesChanged(): void {
  void queryClient.invalidateQueries({ queryKey: templateKeys.all });
}
