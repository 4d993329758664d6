// The console's English dictionary: the shell's texts and one file per feature
// (features/<feature>/locales/en.json, under the feature's key). Keys are typed from this side
// (i18next.d.ts). Loaded with its pack (pack-en.ts) only when English is spoken.
import shell from './en.json';
import onboarding from '../features/onboarding/locales/en.json';
import send from '../features/send/locales/en.json';
import templates from '../features/templates/locales/en.json';
import history from '../features/history/locales/en.json';
import signature from '../features/signature/locales/en.json';
import bulk from '../features/bulk/locales/en.json';
import dial from '../features/dial/locales/en.json';
import dialects from '../features/dialects/locales/en.json';
import sandbox from '../features/sandbox/locales/en.json';
import workbench from '../features/workbench/locales/en.json';
import oncall from '../features/oncall/locales/en.json';

export const EN = { ...shell, onboarding, send, templates, history, signature, bulk, dial, dialects, sandbox, workbench, oncall };

export type Dictionary = typeof EN;
