// The exchange inspector's pretty view: testers read these values, so they must be the bytes that were sent.
import { describe, expect, it } from 'vitest';
import { prettyBody, prettyForm, prettyXml } from '../../../renderer/src/features/history/body-format';
import { canonicalBody } from '../../../renderer/src/features/history/exchange-diff';

describe('the pretty view of a form body', () => {
  it('keeps every `=` of a value: Base64 padding and signatures are shown whole', () => {
    const body = 'sign=dGVzdA%3D%3D&token=YWJj==&sig=a=b=c&mobile=13800138008';
    expect(prettyForm(body)).toBe(['sign = dGVzdA==', 'token = YWJj==', 'sig = a=b=c', 'mobile = 13800138008'].join('\n'));
    expect(prettyBody(body, 'form')).toBe(prettyForm(body));
  });

  it('decodes as the platform does: `+` is a space, percent-encoded UTF-8, a field with no value, a bad escape left as it is', () => {
    expect(prettyForm('content=%E6%82%A8%E5%A5%BD+A&empty&bad=100%')).toBe(['content = 您好 A', 'empty = ', 'bad = 100%'].join('\n'));
  });

  it('compares two form bodies by their whole values', () => {
    expect(canonicalBody('b=x==&a=1', 'application/x-www-form-urlencoded')).toBe('a = 1\nb = x==');
  });
});

describe('the pretty view of an XML body', () => {
  it('keeps a tag whole when an attribute value holds `>`', () => {
    const xml = '<reply><item expr="a > b" note=\'x>y\'>ok</item><empty when="1>0"/></reply>';
    expect(prettyXml(xml)).toBe(['<reply>', '  <item expr="a > b" note=\'x>y\'>ok</item>', '  <empty when="1>0"/>', '</reply>'].join('\n'));
  });

  it('keeps the declaration, comments and CDATA as written', () => {
    const xml = '<?xml version="1.0" encoding="UTF-8"?><r><!-- a > b --><c><![CDATA[<x> & y]]></c></r>';
    expect(prettyXml(xml)).toBe(
      ['<?xml version="1.0" encoding="UTF-8"?>', '<r>', '  <!-- a > b -->', '  <c>', '    <![CDATA[<x> & y]]>', '  </c>', '</r>'].join('\n'),
    );
  });

  it('gives up (the raw view shows it) rather than show a tag it could not read whole or tags that do not nest', () => {
    expect(prettyXml('<r><a href="x>y</a></r>')).toBeNull();
    expect(prettyXml('<r><a></b></r>')).toBeNull();
    expect(prettyXml('<r><a>')).toBeNull();
  });
});
