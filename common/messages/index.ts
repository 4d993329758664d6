// The message catalog: every text main and the CLI need to say in words (errors, field issues,
// reasons, provider result codes, call states, transport failures, spreadsheet problems), in both
// languages. Main never builds a sentence: it sends a code and parameters, and whoever shows it
// (the renderer's i18next, the CLI's) renders it from here. `kind` in the parameters picks a
// variant (an i18next context: error.not-found_batch).
//
// In two files per language, one catalog: `<lang>.json`, what any screen may say (errors, issues,
// reasons, provider codes, call states, transport failures, notices), and `features/<lang>.json`,
// the sections only some features' screens say (a signature's diagnosis, parse and vectors, a clock
// probe, a capture's checks, a dialect's name, an import's issues, a dial's results, an exchange's
// failure in short, paging's words for the On call screen). The console loads the first before its first screen and the second with those
// screens (renderer/src/i18n/packs.ts); main and the CLI use the whole (MESSAGES).
//
// A sentence lives once. One that the app and the CLI both say, or that several features' screens
// say, is here under the key of the feature that owns it, and every caller uses that key (the
// renderer with `{ ns: 'msg' }`, the CLI as it is): `workbench` (a collection file's notes, an
// assertion, the raw client), `signature` (why a signature does not verify; the CLI's `_detailed`
// variant names the keyIds) in the feature sections; `templates` (the template picker) and
// `provider.short` in the core, which the first screen says. test/unit/i18n/one-sentence.test.ts
// fails on a sentence copied into a second catalog.
import en from './en.json';
import zhCN from './zh-CN.json';
import featuresEn from './features/en.json';
import featuresZhCN from './features/zh-CN.json';
import { isResultCode } from '../domain/codes';
import type { IpcError } from '../contract/errors';
import type { Reason } from '../reasons';
import type { MessageRecord } from '../records';
import { maskMobile } from '../domain/mobile';

/** The sections any screen may say (`<lang>.json`). */
export type CoreMessages = typeof en;
/** The sections only some features' screens say (`features/<lang>.json`). */
export type FeatureMessages = typeof featuresEn;
export type MessageCatalog = CoreMessages & FeatureMessages;

const whole = (core: CoreMessages, features: FeatureMessages): MessageCatalog => ({ ...core, ...features });

// Marked pure: the renderer, which loads the two parts apart, does not get both in its first chunk.
export const MESSAGES: { en: MessageCatalog; 'zh-CN': MessageCatalog } = {
  en: /* @__PURE__ */ whole(en, featuresEn),
  'zh-CN': /* @__PURE__ */ whole(zhCN, featuresZhCN),
};

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
export function providerCodeKeys(
  code: number | null | undefined,
  where?: 'sandbox',
): { meaning: string; action: string; params: { code: number | string; context?: string } } {
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
    body:
      m.state === 'answered' && m.duration !== null ? say('notice.ended.answered', { who, duration: m.duration }) : say('notice.ended.other', { who, state }),
  };
}
