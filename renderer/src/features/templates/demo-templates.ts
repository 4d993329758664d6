// The Sandbox's approved demo templates (the same texts the embedded sandbox provider approves for
// every account), to try sending before any real template is registered. Offered by the onboarding
// guide and by the empty template library.
import type { TFunction } from 'i18next';
import { ask } from '../../app/query';
import { sameText } from './template-rules';
import { templatesChanged } from './templates-changed';

export type DemoKey = 'shipped' | 'alert' | 'code';

export const DEMO_TEMPLATES: readonly { key: DemoKey; content: string }[] = [
  { key: 'shipped', content: '您好，【变量】，您的订单【变量】已发货，请注意查收。' },
  { key: 'alert', content: '【变量】告警：【变量】，请立即处理。' },
  { key: 'code', content: '您的验证码是【变量】，5分钟内有效。' },
];

export interface DemoResult {
  added: number;
  /** Already in the library (same text): not added twice. */
  present: number;
}

/** Each demo template's name and its markers' labels, in the user's language. */
export function demoTexts(t: TFunction): Record<DemoKey, { name: string; labels: string[] }> {
  return {
    shipped: { name: t('templates.demo.shipped'), labels: [t('templates.demoLabel.customer'), t('templates.demoLabel.order')] },
    alert: { name: t('templates.demo.alert'), labels: [t('templates.demoLabel.system'), t('templates.demoLabel.problem')] },
    code: { name: t('templates.demo.code'), labels: [t('templates.demoLabel.code')] },
  };
}

/**
 * Adds, as approved, the demo templates that are not in the library yet (same text), named and
 * labelled in the user's language. A failure is thrown (main's error), after the ones already
 * added are shown.
 */
export async function addDemoTemplates(t: TFunction): Promise<DemoResult> {
  const texts = demoTexts(t);
  const listed = await ask((api) => api.templates.list());
  const have = new Set(listed.map((x) => sameText(x.content)));
  const missing = DEMO_TEMPLATES.filter((d) => !have.has(sameText(d.content)));
  let added = 0;
  try {
    for (const demo of missing) {
      await ask((api) => api.templates.save({ name: texts[demo.key].name, content: demo.content, approved: true, markerNames: texts[demo.key].labels }));
      added++;
    }
  } finally {
    if (added) templatesChanged();
  }
  return { added, present: DEMO_TEMPLATES.length - missing.length };
}
