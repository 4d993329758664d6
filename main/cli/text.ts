// What the CLI says, in the language of the environment (or --lang): the shared message catalog
// (errors, reasons, states, provider codes, and the sentences the CLI says like the app, under their
// feature's key: workbench.fileWarning..., signature.verdict...) and the CLI's own dictionary
// (cli:..., what only the command line says), one i18next.
import i18next, { type TFunction } from 'i18next';
import type { IpcError } from '../../common/contract/errors';
import type { Lang } from '../../common/domain/i18n-text';
import { errorArgs, issueArgs, MESSAGES, providerCodeKeys, reasonArgs } from '../../common/messages';
import type { Reason } from '../../common/reasons';
import { environmentLanguage } from '../i18n';
import en from './locales/en.json';
import zhCN from './locales/zh-CN.json';
import type { CliText } from './io';
import { escapeControls } from './terminal-text';

export interface CliWords {
  lang: Lang;
  t: TFunction;
  /** An error of main's, with its field problems. */
  error(e: IpcError): string;
  reason(r: Reason | null | undefined): string;
  /** A provider result code's meaning and what to do. */
  providerCode(code: number | null): string;
  text(x: CliText): string;
  /** Sentences one after the other: with a space in English, none in Chinese. */
  sentences(...parts: string[]): string;
}

/** The language: --lang wins, then the environment (LC_ALL, LC_MESSAGES, LANG). */
export function cliLanguage(argv: readonly string[], env: NodeJS.ProcessEnv): Lang {
  const i = argv.findIndex((a) => a === '--lang' || a.startsWith('--lang='));
  const value = i < 0 ? undefined : argv[i]!.includes('=') ? argv[i]!.slice('--lang='.length) : argv[i + 1];
  if (value && /^zh/i.test(value)) return 'zh-CN';
  if (value && /^en/i.test(value)) return 'en';
  return environmentLanguage(env);
}

export function cliWords(lang: Lang): CliWords {
  const instance = i18next.createInstance();
  void instance.init({
    resources: { en: { translation: MESSAGES.en, cli: en }, 'zh-CN': { translation: MESSAGES['zh-CN'], cli: zhCN } },
    lng: lang,
    fallbackLng: 'en',
    initAsync: false,
    returnNull: false,
    // Every value put into a sentence (a provider's msg, an smsid, a cell) is shown with its control characters made visible.
    interpolation: { escapeValue: true, escape: (value: unknown) => escapeControls(String(value)) },
  });
  const t = instance.t.bind(instance) as TFunction;
  const words: CliWords = {
    lang,
    t,
    error(e) {
      const head = t(...errorArgs(e)) as string;
      const fields = (e.issues ?? []).map((i) => {
        const said = t(...issueArgs(i.message)) as string;
        return said ? `${i.path}: ${said}` : `${i.path}: ${i.message}`;
      });
      if (!fields.length) return head;
      return `${e.code === 'invalid-input' ? t('cli:invalidInput') : head} ${fields.join(t('cli:listSeparator'))}`;
    },
    reason: (r) => (r ? (t(...reasonArgs(r)) as string) : ''),
    providerCode(code) {
      const k = providerCodeKeys(code);
      return `${t(k.meaning, k.params)} ${t(k.action, k.params)}`;
    },
    text: (x) => ('error' in x ? words.error(x.error) : (t(x.key, x.params ?? {}) as string)),
    sentences: (...parts) => parts.filter(Boolean).join(lang === 'zh-CN' ? '' : ' '),
  };
  return words;
}
