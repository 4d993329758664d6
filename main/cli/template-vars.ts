import { fillTemplate, parseTemplate } from '../../common/domain/templates';
import type { TemplateView } from '../../common/contract';
import { usage } from './io';

/**
 * The marker values from `NAME=VALUE` pairs. A marker is named by its label (when the template has
 * labels) or by its position, 1-based. Every marker needs a value.
 */
export function valuesFromVars(template: Pick<TemplateView, 'id' | 'content' | 'markerNames'>, pairs: readonly string[]): string[] {
  const { markerCount } = parseTemplate(template.content);
  const values: string[] = new Array<string>(markerCount).fill('');
  for (const pair of pairs) {
    const eq = pair.indexOf('=');
    if (eq <= 0) throw usage('varShape', { value: pair }, 'invalid-var');
    const name = pair.slice(0, eq).trim();
    let index = template.markerNames.indexOf(name);
    if (index < 0 && /^\d+$/.test(name)) index = Number(name) - 1;
    if (index < 0 || index >= markerCount) {
      const known = Array.from({ length: markerCount }, (_, i) => template.markerNames[i] || String(i + 1)).join(', ');
      throw usage('varUnknown', { id: template.id, name, known: known || '—' }, 'invalid-var');
    }
    values[index] = pair.slice(eq + 1);
  }
  const missing = values.flatMap((v, i) => (v.trim() ? [] : [template.markerNames[i] || String(i + 1)]));
  if (missing.length) throw usage('varMissing', { names: missing.join(', ') }, 'invalid-var');
  return values;
}

/** The template filled from `NAME=VALUE` pairs (see valuesFromVars). */
export function fillFromVars(template: Pick<TemplateView, 'id' | 'content' | 'markerNames'>, pairs: readonly string[]): string {
  return fillTemplate(template.content, valuesFromVars(template, pairs));
}
