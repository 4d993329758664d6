/**
 * Provider result codes (spec section 7) and the gateway's signature rejection.
 *
 * Every text says what happened (meaning) and what to do next (action), in Simplified Chinese and
 * English. Texts never claim more than we know: a 500 or an unknown code may still have placed a call.
 */

import type { LocalizedText } from './i18n-text';

export type ResultCode = 2 | 400 | 401 | 402 | 403 | 404 | 500;

export interface CodeInfo {
  code: number;
  known: boolean;
  success: boolean;
  meaning: LocalizedText;
  action: LocalizedText;
}

/** The provider's success code. */
export const SUCCESS_CODE = 2;

/** `code` used by {@link describeCode} when the reply carried no usable code. */
export const NO_CODE = -1;

export const RESULT_CODES: Record<ResultCode, CodeInfo> = {
  2: {
    code: 2,
    known: true,
    success: true,
    meaning: {
      'zh-CN': '提交成功：服务商已受理请求，将拨打电话。',
      en: 'Submitted: the provider accepted the request and will place the call.',
    },
    action: {
      'zh-CN': '无需操作。可在历史记录中查看呼叫状态和通话时长；仅在对方接听后才计费。',
      en: 'Nothing to do. Follow the call state and duration in History; a unit is charged only if the call is answered.',
    },
  },
  400: {
    code: 400,
    known: true,
    success: false,
    meaning: {
      'zh-CN': '参数错误：缺少必填参数或参数不完整。',
      en: 'Parameter error: a required parameter is missing or incomplete.',
    },
    action: {
      'zh-CN':
        '请检查号码、内容以及配置中的 API ID 和 API Key 是否都已填写，然后重新发送；如仍出现，请在报文查看器中检查原始请求。',
      en: "Check that the number, the text and the profile's API ID and API Key are all filled in, then send again. If it persists, inspect the raw request in the exchange inspector.",
    },
  },
  401: {
    code: 401,
    known: true,
    success: false,
    meaning: {
      'zh-CN': '鉴权失败：API ID 或 API Key 错误。',
      en: 'Authentication failed: the API ID or API Key is wrong.',
    },
    action: {
      'zh-CN': '请核对配置中的 API ID 和 API Key（可在服务商控制台的 API 设置中查看）。',
      en: 'Check the API ID and API Key in the profile (console → API settings).',
    },
  },
  402: {
    code: 402,
    known: true,
    success: false,
    meaning: {
      'zh-CN': '余额不足：账户剩余的语音通知条数不够。',
      en: 'Insufficient balance: the account has no voice notification units left.',
    },
    action: {
      'zh-CN': '请在服务商控制台购买套餐充值（最低 1500 元，套餐永久有效），充值后重新发送。',
      en: 'Recharge by buying a package in the provider console (minimum purchase 1500 CNY; packages do not expire), then send again.',
    },
  },
  403: {
    code: 403,
    known: true,
    success: false,
    meaning: {
      'zh-CN': '内容未审核：该内容没有对应的已报备且审核通过的模板。',
      en: 'Content not approved: the text does not match a registered and approved template.',
    },
    action: {
      'zh-CN':
        '请在服务商控制台（语音通知 → 模板管理）报备模板并等待审核，约需 2 小时；审核受理时间为每天 09:00–20:00，节假日照常。若模板已通过，请检查内容是否与模板完全一致。',
      en: 'Register the template in the provider console (Voice notification → Template management) and wait for approval, about 2 hours; review intake is 09:00–20:00 every day, holidays included. If the template is approved, check that the text matches it exactly.',
    },
  },
  404: {
    code: 404,
    known: true,
    success: false,
    meaning: {
      'zh-CN': '号码格式错误：手机号码格式不正确。',
      en: 'Number format error: the mobile number is malformed.',
    },
    action: {
      'zh-CN': '请填写以 13–19 开头的 11 位中国大陆手机号（可带 +86 前缀）；座机和境外号码无法呼叫。',
      en: 'Enter an 11-digit mainland mobile number starting with 13–19 (a +86 prefix is fine); landlines and foreign numbers cannot be called.',
    },
  },
  500: {
    code: 500,
    known: true,
    success: false,
    meaning: {
      'zh-CN': '服务商内部错误：服务商处理请求时出错。',
      en: 'Provider internal error: the provider failed while handling the request.',
    },
    action: {
      'zh-CN':
        '请勿直接重发：电话可能已经拨出，也可能没有。请先查看该消息的状态和历史记录；确认未拨出后再稍后重试，或联系服务商客服。',
      en: "Do not resend blindly: the call may or may not have been placed. Check the message's status and History first; if nothing went out, retry later or contact the provider's support.",
    },
  },
};

/** All documented result codes, in ascending order. */
export const RESULT_CODE_LIST: readonly ResultCode[] = [2, 400, 401, 402, 403, 404, 500];

export function isResultCode(code: unknown): code is ResultCode {
  return typeof code === 'number' && Object.prototype.hasOwnProperty.call(RESULT_CODES, code);
}

const UNCERTAIN_ACTION: LocalizedText = {
  'zh-CN': '结果不确定，电话可能已经拨出：再次发送前，请先在报文查看器中查看原始回复，并在历史记录中确认状态。',
  en: 'The outcome is uncertain and the call may have been placed: check the raw reply in the exchange inspector and the status in History before sending again.',
};

/**
 * Describes a provider result code. Documented codes get their entry from {@link RESULT_CODES};
 * any other number gets an honest generic text that names it (known=false, success=false);
 * a missing or non-numeric code gets code {@link NO_CODE}.
 */
export function describeCode(code: number | null | undefined): CodeInfo {
  if (isResultCode(code)) return RESULT_CODES[code];
  if (typeof code !== 'number' || Number.isNaN(code)) {
    return {
      code: NO_CODE,
      known: false,
      success: false,
      meaning: {
        'zh-CN': '服务商的回复中没有结果码。',
        en: "The provider's reply carried no result code.",
      },
      action: UNCERTAIN_ACTION,
    };
  }
  return {
    code,
    known: false,
    success: false,
    meaning: {
      'zh-CN': `未知结果码 ${code}：服务商文档中没有说明此代码。`,
      en: `Unknown result code ${code}: the provider's documentation does not list it.`,
    },
    action: UNCERTAIN_ACTION,
  };
}

/** The body the gateway sends (with HTTP 401) when it cannot validate a request signature. */
export const SIGNATURE_REJECTED_MESSAGE = "client request can't be validated";
export const SIGNATURE_REJECTED_HTTP_STATUS = 401;

export interface GatewayRejectionInfo extends CodeInfo {
  /** Stable id for this case; `code` is 0 because the gateway sends no provider code. */
  id: 'signature-rejected';
  httpStatus: number;
}

export const SIGNATURE_REJECTED: GatewayRejectionInfo = {
  id: 'signature-rejected',
  code: 0,
  httpStatus: SIGNATURE_REJECTED_HTTP_STATUS,
  known: true,
  success: false,
  meaning: {
    'zh-CN': `签名被拒：网关无法验证请求签名（HTTP 401，"${SIGNATURE_REJECTED_MESSAGE}"）。`,
    en: `Signature rejected: the gateway could not validate the request signature (HTTP 401, "${SIGNATURE_REJECTED_MESSAGE}").`,
  },
  action: {
    'zh-CN':
      '请打开签名工作台逐步检查：电脑时钟（与网关相差不得超过 300 秒）、Host 及端口、API ID 和 API Key，以及签名方式（spec 或 APISIX）。',
    en: 'Open the signature workbench and check each step: the computer clock (must be within 300 seconds of the gateway), the host and port, the API ID and API Key, and the signature variant (spec or APISIX).',
  },
};

/**
 * True when a reply is the gateway's signature rejection: HTTP 401 with a JSON body whose
 * `message` is "client request can't be validated". `body` may be the raw text or the parsed value.
 */
export function isSignatureRejection(httpStatus: number, body: unknown): boolean {
  if (httpStatus !== SIGNATURE_REJECTED_HTTP_STATUS) return false;
  let value = body;
  if (typeof body === 'string') {
    try {
      value = JSON.parse(body) as unknown;
    } catch {
      return false;
    }
  }
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as { message?: unknown }).message === SIGNATURE_REJECTED_MESSAGE
  );
}
