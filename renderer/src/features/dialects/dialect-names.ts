// What a dialect is called on screen: a built-in one in the reader's language (the message catalog's
// dialect.<id>, shared with the CLI), a dialect of the profile's own by the name it was given.
import type { TFunction } from 'i18next';
import type { Dialect } from '../../../../common/dialects';

const BUILTIN_IDS = ['spec', 'voiceid-push', 'numeric-states', 'digit-states', 'ihuyi'] as const;
type BuiltinId = (typeof BUILTIN_IDS)[number];
const isBuiltin = (id: string | null | undefined): id is BuiltinId => (BUILTIN_IDS as readonly (string | null | undefined)[]).includes(id);

export function dialectName(t: TFunction, d: Dialect, builtinId: string | null | undefined = d.id): string {
  return isBuiltin(builtinId) ? t(`dialect.${builtinId}.name`, { ns: 'msg' }) : d.name;
}

export function dialectDescription(t: TFunction, d: Dialect, builtinId: string | null | undefined = d.id): string | undefined {
  return isBuiltin(builtinId) ? t(`dialect.${builtinId}.description`, { ns: 'msg' }) : d.description;
}
