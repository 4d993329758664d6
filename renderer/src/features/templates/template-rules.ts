// What makes a template acceptable, as the provider and main see it (1 to 500 characters, the
// contract's limits on name, labels and id), expressed as problem codes that the screens turn
// into words. Pure: no React, no DOM, so the same rules check the form, a pasted list and a file.
import { MARKER, parseTemplate, validateTemplate } from '../../../../common/domain/templates';
import { CONTENT_MAX, textLength, unitsFor } from '../../../../common/domain/units';

export { MARKER, CONTENT_MAX };

/** The contract's limits (`templates.save` / `templates.import`). */
export const NAME_MAX = 60;
export const LABEL_MAX = 40;
export const ID_MAX = 64;
export const IMPORT_MAX = 5000;

export type ProblemCode =
  | 'empty'
  | 'too-long'
  | 'name-too-long'
  | 'label-too-long'
  | 'too-many-labels'
  | 'approved-invalid'
  | 'not-template'
  | 'content-not-text'
  | 'id-too-long'
  | 'malformed-row';

/** One problem with one template; `vars` fill the text's {{placeholders}}. */
export interface Problem {
  code: ProblemCode;
  vars?: Record<string, string | number>;
}

/** The content's own problem (empty, or more than 500 characters), or null. */
export function contentProblem(content: string): Problem | null {
  const check = validateTemplate(content);
  if (check.ok) return null;
  if (check.error === 'empty') return { code: 'empty', vars: { max: CONTENT_MAX } };
  return { code: 'too-long', vars: { length: check.length, max: CONTENT_MAX, over: check.length - CONTENT_MAX, marker: MARKER } };
}

export function nameProblem(name: string): Problem | null {
  const trimmed = name.trim();
  return trimmed.length > NAME_MAX ? { code: 'name-too-long', vars: { length: trimmed.length, max: NAME_MAX } } : null;
}

export function labelProblem(label: string): Problem | null {
  const trimmed = label.trim();
  return trimmed.length > LABEL_MAX ? { code: 'label-too-long', vars: { length: trimmed.length, max: LABEL_MAX } } : null;
}

/** Labels as main stores them: trimmed, without empty ones at the end (middle ones keep their place). */
export function cleanLabels(labels: readonly (string | null | undefined)[], markerCount: number): string[] {
  const out = labels.slice(0, markerCount).map((l) => (l ?? '').trim());
  while (out.length && out[out.length - 1] === '') out.pop();
  return out;
}

export interface TemplateFacts {
  /** Characters (code points), each 【变量】 counted as its 4 characters. */
  length: number;
  units: number;
  markerCount: number;
}

export function templateFacts(content: string): TemplateFacts {
  return { length: textLength(content), units: unitsFor(content), markerCount: parseTemplate(content).markerCount };
}

/** The same text for duplicate checks: line endings and surrounding space do not make a template different. */
export function sameText(content: string): string {
  return content.replace(/\r\n?/g, '\n').trim();
}

/** A name for a template that has none: the start of its text, each marker shown as "…". */
export function derivedName(content: string, max = 20): string {
  const flat = content.replace(/\s+/g, ' ').split(MARKER).join('…').trim();
  const chars = Array.from(flat);
  return chars.length > max ? `${chars.slice(0, max).join('')}…` : flat;
}

/** The label shown for marker `index` (0-based): its own label, else null (the screen says "Variable n"). */
export function markerLabel(labels: readonly string[] | undefined, index: number): string | null {
  const label = labels?.[index]?.trim();
  return label ? label : null;
}

/**
 * Whether the form holds changes not saved yet: a name, a text, the approval or a label that differs
 * from what the form opened with (spaces at the ends and empty trailing labels do not count).
 * Closing such a form asks first.
 */
export function unsavedChanges(
  opened: { name: string; content: string; approved: boolean; labels: readonly (string | null | undefined)[] },
  now: { name?: string; content?: string; approved?: boolean; labels?: readonly (string | null | undefined)[] },
): boolean {
  const labels = (l: readonly (string | null | undefined)[] | undefined) => {
    const clean = (l ?? []).map((x) => (x ?? '').trim());
    while (clean.length && clean[clean.length - 1] === '') clean.pop();
    return clean.join('\u0000');
  };
  return (
    (now.name ?? '').trim() !== opened.name.trim() ||
    (now.content ?? '').trim() !== opened.content.trim() ||
    (now.approved ?? false) !== opened.approved ||
    labels(now.labels) !== labels(opened.labels)
  );
}
