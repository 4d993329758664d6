// A sentence lives once: the same English sentence under two keys of two catalogs (the shell's, a
// feature's, the message catalog's core or feature sections, the CLI's) is a copy that will drift.
// A sentence that the app and the CLI both say, or that several features' screens say, lives once
// in the message catalog (common/messages), in the section of the feature that owns it, and every
// caller uses that key. The exceptions below are deliberate, each with its reason.
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(__dirname, '../../..');
const FEATURES_DIR = join(ROOT, 'renderer/src/features');

/** Every catalog, by a short name: each file is one catalog. */
function catalogFiles(lang: 'en' | 'zh-CN'): Map<string, string> {
  const files = new Map<string, string>([
    ['shell', join(ROOT, `renderer/src/i18n/${lang}.json`)],
    ['msg', join(ROOT, `common/messages/${lang}.json`)],
    ['msg-features', join(ROOT, `common/messages/features/${lang}.json`)],
    ['cli', join(ROOT, `main/cli/locales/${lang}.json`)],
  ]);
  for (const feature of readdirSync(FEATURES_DIR).sort()) {
    const file = join(FEATURES_DIR, feature, 'locales', `${lang}.json`);
    if (existsSync(file)) files.set(feature, file);
  }
  return files;
}

function leaves(tree: unknown, prefix = '', out = new Map<string, string>()): Map<string, string> {
  for (const [k, v] of Object.entries(tree as Record<string, unknown>)) {
    const key = prefix ? `${prefix}.${k}` : k;
    if (typeof v === 'string') out.set(key, v);
    else if (v && typeof v === 'object') leaves(v, key, out);
  }
  return out;
}

/** A sentence, not a label: three words or more (a placeholder counts as a word). */
const isSentence = (text: string) =>
  text
    .replace(/\{\{[^}]*\}\}/g, 'X')
    .trim()
    .split(/\s+/).length >= 3;

/** English sentence → where it is, as "catalog:key", for the sentences found in more than one catalog. */
function sentencesInSeveralCatalogs(): Map<string, string[]> {
  const where = new Map<string, string[]>();
  for (const [name, file] of catalogFiles('en')) {
    for (const [key, text] of leaves(JSON.parse(readFileSync(file, 'utf8')))) {
      if (!isSentence(text)) continue;
      where.set(text, [...(where.get(text) ?? []), `${name}:${key}`]);
    }
  }
  return new Map([...where].filter(([, at]) => new Set(at.map((a) => a.split(':')[0])).size > 1));
}

/**
 * The same English words under two keys on purpose: two different things that English happens to
 * say alike (Chinese says them differently, or they belong to different sets of codes).
 */
const DELIBERATE: Record<string, { at: string[]; why: string }> = {
  'Enter a name.': {
    at: ['msg:issue.name-required', 'dial:contacts.form.nameRequired'],
    why: "a contact's name is a person's (姓名), a profile's or template's a thing's (名称)",
  },
  'The name can be at most 60 characters.': {
    at: ['msg:issue.name-too-long', 'dial:contacts.form.nameTooLong'],
    why: "a contact's name is a person's (姓名), a profile's or template's a thing's (名称)",
  },
  'Enter the API ID.': {
    at: ['msg:issue.api-id-required', 'signature:build.problem.api-id-required'],
    why: "the Build tab's own check of its form, said by its code among that tab's other problems (signature.build.problem.*)",
  },
  'Nothing was pasted.': {
    at: ['msg-features:parse.problem.empty', 'signature:parse.empty'],
    why: "the Verify tab's title for a paste that cannot be read (by outcome) and the parser's detail (by problem code): two code sets",
  },
  'Send a voice notification': {
    at: ['send:title', 'signature:preset.voice-send'],
    why: "the Send screen's title, and the name of the provider's operation among the Build tab's presets (by preset id)",
  },
  'Waiting to call': {
    at: ['msg:state.pending', 'send:phase.waiting'],
    why: "a call's state (by state code) and the Send screen's phase of a send (by phase): two code sets",
  },
  'Reading the sheet…': {
    at: ['cli:bulk.reading.parsing', 'bulk:file.phase.parsing'],
    why: 'one of three reading phases, looked up by phase; the CLI says a percent in the other two, the screen shows a bar',
  },
  'The file is not valid JSON.': {
    at: ['msg:issue.dialect-not-json', 'msg-features:vectors.problem.invalid-json'],
    why: 'codes main reports for two different files (a dialect, a vector file), each section looked up by its code',
  },
  'The secure connection (TLS) failed.': {
    at: ['msg:transport.tls', 'msg:reason.transport_tls', 'msg-features:clock.transport_tls'],
    why: "the clock probe's own short text for each transport failure (by code); only TLS reads the same as a send's",
  },
};

describe('a sentence lives once', () => {
  const several = sentencesInSeveralCatalogs();

  it('no English sentence is under two keys of two catalogs (but for the deliberate exceptions)', () => {
    const copies = [...several].filter(([text]) => !(text in DELIBERATE)).map(([text, at]) => `“${text}”: ${at.join(', ')}`);
    expect(copies).toEqual([]);
  });

  it.each(Object.entries(DELIBERATE))('the exception “%s” still holds, where it is listed', (text, { at }) => {
    expect(several.get(text)?.sort(), text).toEqual([...at].sort());
  });

  it('reads every catalog there is', () => {
    const names = [...catalogFiles('en').keys()];
    expect(names).toEqual(expect.arrayContaining(['shell', 'msg', 'msg-features', 'cli', 'send', 'workbench', 'signature']));
    for (const [name, file] of catalogFiles('en')) expect(existsSync(file.replace(/en\.json$/, 'zh-CN.json')), `${name}: ${relative(ROOT, file)}`).toBe(true);
  });
});
