// Reads the message catalog (common/messages) in both languages, for tests that check texts.
import { MESSAGES } from '../../common/messages';

function at(tree: unknown, key: string): string {
  const v = key.split('.').reduce<unknown>((node, part) => (node && typeof node === 'object' ? (node as Record<string, unknown>)[part] : undefined), tree);
  if (typeof v !== 'string') throw new Error(`no text "${key}" in the catalog`);
  return v;
}

/** A catalog text in both languages. */
export function catalogText(key: string): { en: string; 'zh-CN': string } {
  return { en: at(MESSAGES.en, key), 'zh-CN': at(MESSAGES['zh-CN'], key) };
}

/** Every text of a catalog section, by its key, in both languages. */
export function catalogSection(section: string): Record<string, { en: string; 'zh-CN': string }> {
  const en = MESSAGES.en as unknown as Record<string, Record<string, unknown>>;
  return Object.fromEntries(
    Object.keys(en[section] ?? {})
      .filter((k) => typeof en[section]![k] === 'string')
      .map((k) => [k, catalogText(`${section}.${k}`)]),
  );
}
