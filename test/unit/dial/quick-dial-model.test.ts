import { describe, expect, it } from 'vitest';
import type { TemplateView } from '../../../common/contract';
import type { ContactRecord } from '../../../common/bulk-types';
import { defaultTemplate } from '../../../renderer/src/features/dial/dial-model';

const tpl = (id: string, approved = true) => ({ id, name: id, content: `${id}【变量】`, approved, markerCount: 1, markerNames: [] }) as unknown as TemplateView;
const TEMPLATES = [tpl('shipping'), tpl('oncall'), tpl('code'), tpl('old', false)];
let nextId = 1;
const contact = (lastTemplateId: string | null, lastCalledAt: number | null): ContactRecord => ({
  id: nextId++,
  name: `c${nextId}`,
  mobile: '13800138000',
  favourite: false,
  note: '',
  lastTemplateId,
  lastValues: null,
  lastCalledAt,
  createdAt: 0,
  updatedAt: 0,
  groupIds: [],
});

describe("quick dial's template for a person or a list", () => {
  it('never simply the first template of the library (a shipping notice for an on-call page)', () => {
    expect(defaultTemplate(TEMPLATES, [contact(null, null)], null, [])).toBeNull();
    // The only approved template is no guess.
    expect(defaultTemplate([tpl('oncall'), tpl('old', false)], [contact(null, null)], null, [])?.id).toBe('oncall');
  });

  it('the template last used with that contact, or with that list (its last call)', () => {
    expect(defaultTemplate(TEMPLATES, [contact('oncall', 5)], 'code')?.id).toBe('oncall');
    const list = [contact('code', 10), contact('oncall', 20), contact(null, null)];
    expect(defaultTemplate(TEMPLATES, list, 'shipping')?.id).toBe('oncall');
  });

  it('else the one last used in quick dial: this session, else the last any contact was called with', () => {
    const fresh = [contact(null, null)];
    expect(defaultTemplate(TEMPLATES, fresh, 'code', [contact('oncall', 30)])?.id).toBe('code');
    expect(defaultTemplate(TEMPLATES, fresh, null, [contact('code', 10), contact('oncall', 30)])?.id).toBe('oncall');
  });

  it('only a template still approved', () => {
    expect(defaultTemplate(TEMPLATES, [contact('old', 50)], null, [])).toBeNull();
  });
});

describe("the run card's title", () => {
  it('says "Calling" only while the run goes on; after an answer or a stop it says what became of it', async () => {
    const { runTitleKey } = await import('../../../renderer/src/features/dial/dial-model');
    expect(runTitleKey(false, null)).toBe('title');
    expect(runTitleKey(true, 'answered')).toBe('titleCalled');
    expect(runTitleKey(true, 'not-answered')).toBe('titleCalled');
    expect(runTitleKey(true, 'cancelled')).toBe('titleStopped');
    expect(runTitleKey(true, 'refused')).toBe('titleNotCalled');
  });
});
