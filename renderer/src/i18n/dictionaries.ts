// The two dictionaries, composed from the shared one (shell, errors, profiles) and one file per
// feature (features/<feature>/locales/<lang>.json, under the feature's key), and the resources
// i18next loads: each language's dictionary and the shared message catalog (the 'msg' namespace:
// what main reports as codes). Each feature owns its texts; this file only lists them. Keys are
// typed from the English side (i18next.d.ts).
import { MESSAGES, MESSAGES_NS } from '../../../common/messages';
import en from './en.json';
import zhCN from './zh-CN.json';
import onboardingEn from '../features/onboarding/locales/en.json';
import onboardingZh from '../features/onboarding/locales/zh-CN.json';
import sendEn from '../features/send/locales/en.json';
import sendZh from '../features/send/locales/zh-CN.json';
import templatesEn from '../features/templates/locales/en.json';
import templatesZh from '../features/templates/locales/zh-CN.json';
import historyEn from '../features/history/locales/en.json';
import historyZh from '../features/history/locales/zh-CN.json';
import signatureEn from '../features/signature/locales/en.json';
import signatureZh from '../features/signature/locales/zh-CN.json';
import bulkEn from '../features/bulk/locales/en.json';
import bulkZh from '../features/bulk/locales/zh-CN.json';
import dialEn from '../features/dial/locales/en.json';
import dialZh from '../features/dial/locales/zh-CN.json';
import dialectsEn from '../features/dialects/locales/en.json';
import dialectsZh from '../features/dialects/locales/zh-CN.json';
import sandboxEn from '../features/sandbox/locales/en.json';
import sandboxZh from '../features/sandbox/locales/zh-CN.json';
import workbenchEn from '../features/workbench/locales/en.json';
import workbenchZh from '../features/workbench/locales/zh-CN.json';

export const EN = {
  ...en,
  onboarding: onboardingEn,
  send: sendEn,
  templates: templatesEn,
  history: historyEn,
  signature: signatureEn,
  bulk: bulkEn,
  dial: dialEn,
  dialects: dialectsEn,
  sandbox: sandboxEn,
  workbench: workbenchEn,
};

export const ZH_CN: typeof EN = {
  ...zhCN,
  onboarding: onboardingZh,
  send: sendZh,
  templates: templatesZh,
  history: historyZh,
  signature: signatureZh,
  bulk: bulkZh,
  dial: dialZh,
  dialects: dialectsZh,
  sandbox: sandboxZh,
  workbench: workbenchZh,
} as typeof EN;

export type Dictionary = typeof EN;

export const resources = {
  'zh-CN': { translation: ZH_CN, [MESSAGES_NS]: MESSAGES['zh-CN'] },
  en: { translation: EN, [MESSAGES_NS]: MESSAGES.en },
} as const;
