import { describe, expect, it } from 'vitest';
import { decodeBody, declaredCharset } from '../../../main/voice/charset';

// "提交成功" in GBK.
const GBK_SUBMITTED = Buffer.from('cce1bdbbb3c9b9a6', 'hex');

describe('bodies decoded by their declared charset', () => {
  it('GBK and GB18030 by Content-Type, not mojibake', () => {
    const json = Buffer.concat([Buffer.from('{"code":2,"msg":"'), GBK_SUBMITTED, Buffer.from('"}')]);
    expect(decodeBody(json, 'application/json; charset=gbk').text).toBe('{"code":2,"msg":"提交成功"}');
    expect(decodeBody(json, 'application/json;charset="GB18030"').text).toBe('{"code":2,"msg":"提交成功"}');
    expect(decodeBody(json, 'application/json').text).not.toContain('提交成功');
  });
  it('an XML declaration names the encoding when the header does not', () => {
    const xml = Buffer.concat([Buffer.from('<?xml version="1.0" encoding="gbk"?><r><msg>'), GBK_SUBMITTED, Buffer.from('</msg></r>')]);
    expect(decodeBody(xml, 'text/xml').text).toContain('<msg>提交成功</msg>');
  });
  it('UTF-8 when nothing is declared or the label is unknown', () => {
    const utf8 = Buffer.from('{"msg":"提交成功"}');
    expect(decodeBody(utf8, null)).toEqual({ text: '{"msg":"提交成功"}', charset: 'utf-8' });
    expect(decodeBody(utf8, 'application/json; charset=klingon').text).toBe('{"msg":"提交成功"}');
    expect(declaredCharset('text/html; Charset=ISO-8859-1')).toBe('iso-8859-1');
  });
});
