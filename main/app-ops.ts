// The app slice of the handler table: what this Callout is, and the language it speaks.
import type { appOps } from '../common/contract/app';
import type { Ops } from './ops';
import type { Services } from './services';

export function appOpsOf(d: Pick<Services, 'info' | 'setLocale'>): Ops<typeof appOps> {
  return {
    'app.info': () => d.info(),
    'app.setLocale': async ({ locale }) => {
      d.setLocale(locale);
      return { locale };
    },
  };
}
