// The message catalog: every text main and the CLI need to say in words (errors, field issues,
// reasons, provider result codes, call states, transport failures, spreadsheet problems), in both
// languages. Main never builds a sentence: it sends a code and parameters, and whoever shows it
// (the renderer's i18next, the CLI's) renders it from here. `kind` in the parameters picks a
// variant (an i18next context: error.not-found_batch).
import en from './en.json';
import zhCN from './zh-CN.json';
import { isResultCode } from '../domain/codes';
import type { IpcError } from '../contract/errors';
import type { Reason } from '../reasons';
import type { MessageRecord } from '../records';
import { maskMobile } from '../domain/mobile';

export type MessageCatalog = typeof en;

export const MESSAGES: { en: MessageCatalog; 'zh-CN': MessageCatalog } = { en, 'zh-CN': zhCN };

/** The i18next namespace the catalog is loaded under in the renderer (the CLI loads it as its default). */
export const MESSAGES_NS = 'msg';

type Params = Record<string, unknown>;
export type MessageArgs = [key: string, options: Params];

function args(key: string, params: Params | undefined): MessageArgs {
  const p = params ?? {};
  return [key, typeof p.kind === 'string' ? { ...p, context: p.kind } : { ...p }];
}

/** i18next arguments for an error (`t(...errorArgs(e))`). */
export function errorArgs(error: Pick<IpcError, 'code' | 'params'>): MessageArgs {
  return args(`error.${error.code}`, error.params);
}

/** i18next arguments for a stored or reported reason. */
export function reasonArgs(reason: Reason): MessageArgs {
  return args(`reason.${reason.code}`, reason.params);
}

/**
 * i18next arguments for a coded text of one catalog section, e.g. a diagnosis' evidence:
 * `t(...codedArgs('diagnosis', cause.evidence))` (the sections are named in common/signature-types).
 */
export function codedArgs(section: string, text: { code: string; params?: object }): MessageArgs {
  return args(`${section}.${text.code}`, text.params as Params | undefined);
}

/** i18next arguments for a field issue code (unknown codes fall back to the generic text). */
export function issueArgs(code: string): MessageArgs {
  return [`issue.${code}`, { defaultValue: '' }];
}

/**
 * Keys of a provider result code's meaning and action: documented codes, unknown codes, no code.
 * `where: 'sandbox'`: the reply came from the built-in Sandbox, where what to do differs (top it up
 * or register the template on the Sandbox screen, not in a provider's console): the action's
 * `_sandbox` variant when the catalog has one.
 */
export function providerCodeKeys(code: number | null | undefined, where?: 'sandbox'): { meaning: string; action: string; params: { code: number | string; context?: string } } {
  // The codes the spec documents (common/domain/codes.ts); the catalog has a text for each.
  const documented = isResultCode(code);
  const base = documented ? `provider.${code}` : typeof code === 'number' && !Number.isNaN(code) ? 'provider.unknown' : 'provider.none';
  return { meaning: `${base}.meaning`, action: `${base}.action`, params: { code: code ?? '', ...(where ? { context: where } : {}) } };
}

/**
 * What a notification says when a call ends: the desktop app's (from main) and the browser
 * console's (from the page) say the same, in the language of `say`.
 */
export function callEndedNotice(
  say: (key: string, params?: Params) => string,
  m: Pick<MessageRecord, 'state' | 'mobile' | 'duration'>,
): { title: string; body: string } {
  const state = say(`state.${m.state}`);
  const who = maskMobile(m.mobile);
  return {
    title: say('notice.ended.title', { state }),
    body: m.state === 'answered' && m.duration !== null ? say('notice.ended.answered', { who, duration: m.duration }) : say('notice.ended.other', { who, state }),
  };
}
