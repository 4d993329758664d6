// The console's Simplified Chinese dictionary (see dictionary-en.ts, the side the keys are typed
// from). Loaded with its pack (pack-zh-CN.ts) only when Chinese is spoken.
import shell from './zh-CN.json';
import onboarding from '../features/onboarding/locales/zh-CN.json';
import send from '../features/send/locales/zh-CN.json';
import templates from '../features/templates/locales/zh-CN.json';
import history from '../features/history/locales/zh-CN.json';
import signature from '../features/signature/locales/zh-CN.json';
import bulk from '../features/bulk/locales/zh-CN.json';
import dial from '../features/dial/locales/zh-CN.json';
import dialects from '../features/dialects/locales/zh-CN.json';
import sandbox from '../features/sandbox/locales/zh-CN.json';
import workbench from '../features/workbench/locales/zh-CN.json';
import oncall from '../features/oncall/locales/zh-CN.json';
import type { Dictionary } from './dictionary-en';

export const ZH_CN: Dictionary = { ...shell, onboarding, send, templates, history, signature, bulk, dial, dialects, sandbox, workbench, oncall } as Dictionary;
