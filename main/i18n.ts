// What main and the CLI say in words, from the shared message catalog (common/messages), with the
// same i18next the renderer uses. Main itself keeps codes; only the edges render them: the CLI's
// output, desktop notifications, exported files, and logs (in English).
import i18next, { type TFunction } from 'i18next';
import { MESSAGES } from '../common/messages';
import type { Lang } from '../common/domain/i18n-text';

const instances = new Map<Lang, TFunction>();

/** A translator over the catalog in one language (keys: `error.not-found`, `state.answered`, ...). */
export function translator(lang: Lang): TFunction {
  let t = instances.get(lang);
  if (!t) {
    const instance = i18next.createInstance();
    void instance.init({
      resources: { en: { translation: MESSAGES.en }, 'zh-CN': { translation: MESSAGES['zh-CN'] } },
      lng: lang,
      fallbackLng: 'en',
      initAsync: false,
      returnNull: false,
      interpolation: { escapeValue: false },
    });
    t = instance.t.bind(instance) as TFunction;
    instances.set(lang, t);
  }
  return t;
}

/** The language of the environment: LC_ALL, LC_MESSAGES, LANG, LANGUAGE, then the runtime's locale. */
export function environmentLanguage(env: NodeJS.ProcessEnv = process.env): Lang {
  for (const name of ['LC_ALL', 'LC_MESSAGES', 'LANG', 'LANGUAGE'] as const) {
    const v = env[name];
    if (v && v !== 'C' && v !== 'POSIX') return /^zh/i.test(v) ? 'zh-CN' : 'en';
  }
  try {
    return /^zh/i.test(Intl.DateTimeFormat().resolvedOptions().locale) ? 'zh-CN' : 'en';
  } catch {
    return 'en';
  }
}
