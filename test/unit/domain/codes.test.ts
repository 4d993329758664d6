import { describe, expect, it } from 'vitest';
import { RESULT_CODE_LIST, type ResultCode, SIGNATURE_REJECTED_MESSAGE, SUCCESS_CODE, isResultCode, isSignatureRejection } from '../../../common/domain/codes';
import { providerCodeKeys } from '../../../common/messages';
import { translator } from '../../../main/i18n';

const CJK = /[\u4e00-\u9fff]/;
const ALL: ResultCode[] = [2, 400, 401, 402, 403, 404, 500];

/** A provider code's meaning and action, as the catalog renders them, in both languages. */
function describeCode(code: number | null | undefined) {
  const k = providerCodeKeys(code);
  const say = (lang: 'en' | 'zh-CN', key: string) => translator(lang)(key, k.params) as string;
  return {
    meaning: { en: say('en', k.meaning), 'zh-CN': say('zh-CN', k.meaning) },
    action: { en: say('en', k.action), 'zh-CN': say('zh-CN', k.action) },
  };
}
type CodeInfo = ReturnType<typeof describeCode>;
const RESULT_CODES = Object.fromEntries(ALL.map((c) => [c, describeCode(c)])) as Record<ResultCode, CodeInfo>;
const SIGNATURE_REJECTED = (() => {
  const say = (lang: 'en' | 'zh-CN', key: string) => translator(lang)(key) as string;
  return {
    meaning: { en: say('en', 'provider.signature.meaning'), 'zh-CN': say('zh-CN', 'provider.signature.meaning') },
    action: { en: say('en', 'provider.signature.action'), 'zh-CN': say('zh-CN', 'provider.signature.action') },
  };
})();

function expectFullTexts(info: CodeInfo, label: string) {
  for (const field of ['meaning', 'action'] as const) {
    expect(info[field]['zh-CN'].trim().length, `${label} ${field} zh`).toBeGreaterThan(4);
    expect(info[field]['zh-CN'], `${label} ${field} zh`).toMatch(CJK);
    expect(info[field].en.trim().length, `${label} ${field} en`).toBeGreaterThan(10);
    expect(info[field].en, `${label} ${field} en`).not.toMatch(CJK);
  }
}

describe('provider result codes', () => {
  it('covers exactly the codes of spec section 7, each with its own text', () => {
    expect([...RESULT_CODE_LIST]).toEqual(ALL);
    for (const code of ALL) expect(providerCodeKeys(code).meaning).toBe(`provider.${code}.meaning`);
  });

  it.each(ALL)('%i has meaning and action in Chinese and English', (code) => {
    expectFullTexts(RESULT_CODES[code], String(code));
  });

  it('2 is the success code', () => {
    expect(SUCCESS_CODE).toBe(2);
  });

  it('texts differ between codes', () => {
    expect(new Set(ALL.map((c) => RESULT_CODES[c].meaning.en)).size).toBe(ALL.length);
    expect(new Set(ALL.map((c) => RESULT_CODES[c].meaning['zh-CN'])).size).toBe(ALL.length);
  });

  it('401 points to the API ID and API Key', () => {
    expect(RESULT_CODES[401].meaning.en).toBe('Authentication failed: the API ID or API Key is wrong.');
    // It names the place its button opens (Profiles), and both fields: the provider does not say which it refused.
    expect(RESULT_CODES[401].action.en).toBe(
      "Check the profile's API ID and API Key in Profiles (the provider's console → API settings): the provider does not say which of the two it refused.",
    );
    expect(RESULT_CODES[401].action['zh-CN']).toContain('API Key');
    expect(RESULT_CODES[401].action['zh-CN']).toContain('接入配置');
  });

  it('402 explains how to recharge', () => {
    expect(RESULT_CODES[402].meaning.en).toMatch(/^Insufficient balance/);
    expect(RESULT_CODES[402].action.en).toMatch(/1500 CNY/);
    expect(RESULT_CODES[402].action.en).toMatch(/do not expire/);
    expect(RESULT_CODES[402].action['zh-CN']).toMatch(/1500/);
    expect(RESULT_CODES[402].action['zh-CN']).toMatch(/永久有效/);
  });

  it('403 explains template registration and review times', () => {
    const { en, 'zh-CN': zh } = RESULT_CODES[403].action;
    expect(RESULT_CODES[403].meaning.en).toMatch(/^Content not approved/);
    expect(en).toMatch(/Template management/);
    expect(en).toMatch(/2 hours/);
    expect(en).toMatch(/09:00–20:00/);
    expect(en).toMatch(/holidays/);
    expect(zh).toMatch(/模板管理/);
    expect(zh).toMatch(/2 小时/);
    expect(zh).toMatch(/09:00–20:00/);
    expect(zh).toMatch(/节假日/);
  });

  it('404 explains the accepted number format', () => {
    expect(RESULT_CODES[404].action.en).toMatch(/11-digit/);
    expect(RESULT_CODES[404].action['zh-CN']).toMatch(/11 位/);
  });

  it('500 warns against resending blindly', () => {
    expect(RESULT_CODES[500].action.en).toMatch(/Do not resend blindly/);
    expect(RESULT_CODES[500].action.en).toMatch(/may or may not have been placed/);
    expect(RESULT_CODES[500].action.en).toMatch(/status/);
    expect(RESULT_CODES[500].action['zh-CN']).toMatch(/请勿直接重发/);
  });
});

describe('texts of undocumented codes', () => {
  it.each([0, 1, 3, 200, 405, 501, 9999, -7, 2.5])('describes unknown code %d honestly, naming it', (code) => {
    const info = describeCode(code);
    expect(info.meaning.en).toContain(String(code));
    expect(info.meaning['zh-CN']).toContain(String(code));
    expect(info.action.en).toMatch(/before sending again/);
    expectFullTexts(info, String(code));
  });

  it.each([null, undefined, Number.NaN])('describes a missing code (%s)', (code) => {
    const info = describeCode(code);
    expect(info.meaning.en).toMatch(/no result code/);
    expectFullTexts(info, String(code));
  });
});

describe('isResultCode', () => {
  it.each([...ALL])('%i is a result code', (c) => expect(isResultCode(c)).toBe(true));
  it.each([0, 1, 3, 405, '2', null, undefined, 2.5, Number.NaN])('%s is not', (c) => expect(isResultCode(c)).toBe(false));
});

describe('SIGNATURE_REJECTED', () => {
  it('describes the gateway rejection with workbench advice', () => {
    expectFullTexts(SIGNATURE_REJECTED, 'signature');
    expect(SIGNATURE_REJECTED.meaning.en).toMatch(/signature/);
    expect(SIGNATURE_REJECTED.action.en).toMatch(/signature workbench/);
    expect(SIGNATURE_REJECTED.action.en).toMatch(/clock/);
    expect(SIGNATURE_REJECTED.action.en).toMatch(/300 seconds/);
    expect(SIGNATURE_REJECTED.action.en).toMatch(/host and port/);
    expect(SIGNATURE_REJECTED.action['zh-CN']).toMatch(/签名工作台/);
    expect(SIGNATURE_REJECTED.action['zh-CN']).toMatch(/时钟/);
  });

  it('is not confused with provider code 401', () => {
    expect(SIGNATURE_REJECTED.meaning.en).not.toBe(RESULT_CODES[401].meaning.en);
  });
});

describe('isSignatureRejection', () => {
  it.each<[number, unknown, boolean]>([
    [401, { message: "client request can't be validated" }, true],
    [401, '{"message":"client request can\'t be validated"}', true],
    [401, '{"message": "client request can\'t be validated"}\n', true],
    [200, { message: SIGNATURE_REJECTED_MESSAGE }, false],
    [401, { message: 'Unauthorized' }, false],
    [401, { code: 401, msg: 'auth failed' }, false], // the provider's own 401 result code body
    [401, 'not json', false],
    [401, null, false],
    [401, '', false],
    [401, [SIGNATURE_REJECTED_MESSAGE], false],
  ])('status %i, body %j → %s', (status, body, expected) => {
    expect(isSignatureRejection(status, body)).toBe(expected);
  });
});
