// Quick dial never passes one person's values to another unseen.
import { describe, expect, it } from 'vitest';
import type { TemplateView } from '../../../common/contract';
import type { ContactRecord } from '../../../common/bulk-types';
import { prefillFor } from '../../../renderer/src/features/dial/dial-model';

const alert = { id: 't1', markerCount: 2 } as TemplateView;
const liNa = { id: 1, name: '李娜', mobile: '13700000008', lastTemplateId: 't1', lastValues: ['数据库', '磁盘已满'] } as unknown as ContactRecord;
const wang = { id: 2, name: '王芳', mobile: '13700000005', lastTemplateId: null, lastValues: null } as unknown as ContactRecord;
const remembered = { t1: { values: ['网关', '超时'], who: '张伟', at: Date.UTC(2026, 10, 27, 2, 32) } };

describe('what a quick dial starts with', () => {
  it("the contact's own last values with this template, without a note", () => {
    expect(prefillFor(alert, liNa, remembered)).toEqual({ values: ['数据库', '磁盘已满'], from: null });
  });

  it("another person's last values only with whom and when they were for", () => {
    expect(prefillFor(alert, wang, remembered)).toEqual({ values: ['网关', '超时'], from: remembered.t1 });
  });

  it('empty when nothing was used with this template this session', () => {
    expect(prefillFor(alert, wang, {})).toEqual({ values: ['', ''], from: null });
    expect(prefillFor(null, wang, remembered)).toEqual({ values: [], from: null });
  });
});
