// The Sandbox's demo templates carry names marked as the Sandbox's, so that they are never taken for
// a template of the user's own with the same name beside them (the library, Send, the Sandbox screen).
import { describe, expect, it } from 'vitest';
import { DEMO_TEMPLATES } from '../../../main/sandbox';
import templatesEn from '../../../renderer/src/features/templates/locales/en.json';
import templatesZh from '../../../renderer/src/features/templates/locales/zh-CN.json';

describe("the Sandbox's demo templates' names", () => {
  it("the sandbox's registered demo templates are named as the Sandbox's", () => {
    for (const d of DEMO_TEMPLATES) expect(d.name).toMatch(/（沙箱示例）$/);
  });

  it('the demo templates added to the library are named as the Sandbox’s, in both languages', () => {
    for (const name of Object.values(templatesEn.demo)) expect(name).toMatch(/\(Sandbox demo\)$/);
    for (const name of Object.values(templatesZh.demo)) expect(name).toMatch(/（沙箱示例）$/);
    // Not the name a user gives a template of their own.
    expect(Object.values(templatesZh.demo)).not.toContain('发货通知');
  });
});
