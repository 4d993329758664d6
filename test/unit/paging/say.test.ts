import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseAlertPost } from '../../../common/paging/intake';
import { sayText, speechWarnings, variableIssues } from '../../../common/paging/say';
import type { AlertGroup } from '../../../common/paging/types';

const fixture = (name: string): AlertGroup => {
  const r = parseAlertPost(readFileSync(resolve(__dirname, '../../fixtures/paging', name), 'utf8'));
  if (!r.ok) throw new Error(JSON.stringify(r.error));
  return r.group;
};

const template = { content: '【变量】发生【变量】告警，共【变量】条，请尽快处理。', markerNames: ['系统', '问题', '数量'] };

describe('sayText: the approved template filled from an alert', () => {
  it('fills named markers from labels, annotations and the count, and checks the text', () => {
    const g = fixture('plain.json');
    const r = sayText(template, { 系统: '{{labels.service}}服务', 问题: '{{title}}', 数量: '{{count}}' }, g);
    expect(r.text).toBe('orders服务发生订单库主从延迟告警，共1条，请尽快处理。');
    expect(r.values).toEqual(['orders服务', '订单库主从延迟', '1']);
    expect(r.ok).toBe(true);
    expect(r.errors).toEqual([]);
    expect(r.warnings).toEqual([]);
    expect(r.length).toBe([...r.text].length);
    expect(r.units).toBe(1);
  });

  it('uses the common annotations, else the first firing alert’s; count includes what Alertmanager left out', () => {
    const g = fixture('alertmanager-v4-two-alerts.json');
    const r = sayText(template, { 系统: '{{labels.job}}', 问题: '{{annotations.summary}}', 数量: '{{count}}' }, g);
    expect(r.values).toEqual(['node', '数据库主机 db-01 宕机', '5']);
    expect(r.ok).toBe(true);
  });

  it('{{status}} says 告警 or 已恢复 (or the route’s words); {{firing}} and {{resolved}} count', () => {
    const tpl = { content: '【变量】：【变量】' };
    const g = fixture('alertmanager-v4-two-alerts.json');
    expect(sayText(tpl, { 1: '{{status}}', 2: '{{firing}}个告警，{{resolved}}个已恢复' }, g).text).toBe('告警：1个告警，1个已恢复');
    const resolved = fixture('alertmanager-v4-resolved.json');
    expect(sayText(tpl, { 1: '{{status}}', 2: '{{severity}}' }, resolved).text).toBe('已恢复：critical');
    expect(sayText(tpl, { 1: '{{status}}', 2: 'x' }, resolved, { statusWords: { firing: '故障', resolved: '恢复' } }).text).toBe('恢复：x');
  });

  it('markers are numbered "1", "2" ... when the template does not name them', () => {
    const r = sayText({ content: '主机【变量】故障' }, { 1: '{{labels.instance}}' }, fixture('plain.json'));
    expect(r.text).toBe('主机db-01故障');
  });

  it('a value the alert lacks is an error, or said as the stand-in with a warning', () => {
    const g = fixture('plain.json');
    const vars = { 系统: '{{labels.cluster}}', 问题: '{{title}}', 数量: '{{count}}' };
    const r = sayText(template, vars, g);
    expect(r.ok).toBe(false);
    expect(r.errors).toContainEqual({ code: 'value-missing', params: { marker: '系统', name: 'labels.cluster' } });
    const s = sayText(template, vars, g, { missing: '未知' });
    expect(s.ok).toBe(true);
    expect(s.text.startsWith('未知发生')).toBe(true);
    expect(s.warnings).toContainEqual({ code: 'value-stand-in', params: { marker: '系统', name: 'labels.cluster' } });
  });

  it('an unmapped marker, an unknown name and an empty value are errors; the text no longer matches the template', () => {
    const g = fixture('plain.json');
    const r = sayText(template, { 系统: '{{labelz.x}}', 问题: '  ' }, g);
    expect(r.ok).toBe(false);
    expect(r.errors).toEqual(
      expect.arrayContaining([
        { code: 'unknown-name', params: { marker: '系统', name: 'labelz.x' } },
        { code: 'marker-unmapped', params: { marker: '问题' } },
        { code: 'marker-unmapped', params: { marker: '数量' } },
        { code: 'template-mismatch', params: {} },
      ]),
    );
  });

  it('over 500 characters is refused with the length', () => {
    const g = fixture('plain.json');
    g.commonAnnotations = { description: '很长'.repeat(300) };
    const r = sayText(template, { 系统: 'a', 问题: '{{annotations.description}}', 数量: '1' }, g);
    expect(r.ok).toBe(false);
    expect(r.errors).toContainEqual({ code: 'too-long', params: { length: r.length, max: 500 } });
    expect(r.units).toBe(Math.ceil(r.length / 70));
  });

  it('warns about what speech reads badly: URLs, IP addresses, long digit runs, English punctuation in Chinese', () => {
    const g = fixture('alertmanager-v4-firing.json');
    const r = sayText(template, { 系统: '{{labels.instance}}', 问题: '{{annotations.summary}}', 数量: '{{count}}' }, g);
    expect(r.ok).toBe(true);
    expect(r.warnings.map((w) => [w.code, 'marker' in w.params ? w.params.marker : null])).toEqual(
      expect.arrayContaining([
        ['url', '系统'],
        ['url', '问题'],
        ['english-punctuation', '问题'],
      ]),
    );
  });

  it('speechWarnings: each kind, and what is fine', () => {
    expect(speechWarnings('m', '10.0.3.17:9100 宕机', true)).toEqual([{ code: 'ip-address', params: { marker: 'm', text: '10.0.3.17:9100' } }]);
    expect(speechWarnings('m', '订单 202611270001 失败', true)).toEqual([{ code: 'long-digits', params: { marker: 'm', text: '202611270001' } }]);
    expect(speechWarnings('m', 'CPU 使用率 95.5%，请处理', true)).toEqual([]);
    expect(speechWarnings('m', '10:30:00 起延迟', true)).toEqual([]);
    expect(speechWarnings('m', 'std::vector', false)).toEqual([]);
    expect(speechWarnings('m', '节点 fe80::1ff:fe23:4567:890a 失联', true)).toEqual([
      { code: 'ip-address', params: { marker: 'm', text: 'fe80::1ff:fe23:4567:890a' } },
    ]);
    expect(speechWarnings('m', '磁盘满了, 请处理!', true)).toEqual([{ code: 'english-punctuation', params: { marker: 'm', chars: ', !' } }]);
    expect(speechWarnings('m', 'disk full, act now', false)).toEqual([]);
    expect(speechWarnings('m', '见 https://grafana.example.com/d/abc', true)).toEqual([
      { code: 'url', params: { marker: 'm', text: 'https://grafana.example.com/d/abc' } },
    ]);
  });

  it('variableIssues checks a route before it is saved, without an alert', () => {
    expect(variableIssues(template, { 系统: '{{labels.instance}}', 问题: '{{annotations.summary}}', 数量: '{{count}}' })).toEqual([]);
    expect(variableIssues(template, { 系统: '{{labels.instance}}', 问题: '{{nope}}', 其他: 'x' })).toEqual([
      { code: 'unknown-name', params: { marker: '问题', name: 'nope' } },
      { code: 'marker-unmapped', params: { marker: '数量' } },
      { code: 'marker-unknown', params: { marker: '其他' } },
    ]);
  });

  it('a value holding the marker or line breaks is said as one line and still matches', () => {
    const g = fixture('plain.json');
    g.commonAnnotations = { summary: '第一行\n第二行【变量】' };
    const r = sayText({ content: '告警：【变量】' }, { 1: '{{annotations.summary}}' }, g);
    expect(r.text).toBe('告警：第一行 第二行【变量】');
    expect(r.ok).toBe(true);
  });
});
