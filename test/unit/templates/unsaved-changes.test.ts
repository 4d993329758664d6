import { describe, expect, it } from 'vitest';
import { unsavedChanges } from '../../../renderer/src/features/templates/template-rules';

const EMPTY = { name: '', content: '', approved: false, labels: [] };
const SAVED = { name: '发货通知', content: '您好，【变量】，您的订单已发货。', approved: true, labels: ['客户'] };

describe('a template form with unsaved changes (closing it asks first)', () => {
  it('a half-typed new template is unsaved', () => {
    expect(unsavedChanges(EMPTY, { name: '', content: '您好，【变', approved: false, labels: [] })).toBe(true);
    expect(unsavedChanges(EMPTY, { name: 'Typed' })).toBe(true);
  });

  it('an edited name, text, approval or label is unsaved', () => {
    expect(unsavedChanges(SAVED, { ...SAVED, content: `${SAVED.content}谢谢。` })).toBe(true);
    expect(unsavedChanges(SAVED, { ...SAVED, approved: false })).toBe(true);
    expect(unsavedChanges(SAVED, { ...SAVED, labels: ['客户称呼'] })).toBe(true);
  });

  it('a form as it opened (spaces at the ends, empty trailing labels aside) closes without asking', () => {
    expect(unsavedChanges(EMPTY, {})).toBe(false);
    expect(unsavedChanges(EMPTY, { name: '  ', content: '', approved: false, labels: ['', undefined] })).toBe(false);
    expect(unsavedChanges(SAVED, { ...SAVED, labels: ['客户', ''] })).toBe(false);
  });
});
