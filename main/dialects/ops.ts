// The dialects slice of the handler table: the built-in dialects, checking a file, and teaching one.
import { BUILTIN_DIALECTS, parseDialectText } from '../../common/dialects';
import type { dialectsOps } from '../../common/contract/dialects';
import { fail } from '../errors';
import type { Ops } from '../ops';
import type { DialectTeacher } from './teacher';

export function dialectOps(teacher: DialectTeacher): Ops<typeof dialectsOps> {
  return {
    'dialects.list': async () => [...BUILTIN_DIALECTS],
    'dialects.check': async ({ text }) => {
      const r = parseDialectText(text);
      if (!r.ok) throw fail('dialect-invalid', {}, r.issues);
      return r.dialect;
    },
    'dialects.reply': async ({ exchangeId }) => teacher.reply(exchangeId),
    'dialects.preview': async ({ profileId, dialect }) => teacher.preview(profileId, dialect),
  };
}
