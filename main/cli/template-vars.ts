import { fillTemplate, parseTemplate } from '../../common/domain/templates';
import type { TemplateRecord } from '../store/template-repository';

export class VarError extends Error {}

/**
 * Fills a template from `NAME=VALUE` pairs. A marker is named by its label (when the template has
 * labels) or by its position, 1-based.
 */
export function fillFromVars(template: TemplateRecord, pairs: readonly string[]): string {
  const { markerCount } = parseTemplate(template.content);
  const values: string[] = new Array<string>(markerCount).fill('');
  for (const pair of pairs) {
    const eq = pair.indexOf('=');
    if (eq <= 0) throw new VarError(`--var expects NAME=VALUE, got "${pair}".`);
    const name = pair.slice(0, eq).trim();
    const value = pair.slice(eq + 1);
    let index = template.markerNames.indexOf(name);
    if (index < 0 && /^\d+$/.test(name)) index = Number(name) - 1;
    if (index < 0 || index >= markerCount) {
      const known = Array.from({ length: markerCount }, (_, i) => template.markerNames[i] || String(i + 1)).join(', ');
      throw new VarError(`Template ${template.id} has no variable "${name}"; its variables are: ${known || '(none)'}.`);
    }
    values[index] = value;
  }
  const missing = values.flatMap((v, i) => (v.trim() ? [] : [template.markerNames[i] || String(i + 1)]));
  if (missing.length) throw new VarError(`Missing --var for: ${missing.join(', ')}.`);
  return fillTemplate(template.content, values);
}
