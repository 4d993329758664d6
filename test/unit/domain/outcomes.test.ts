import { describe, expect, it } from 'vitest';
import { authFixPlace, authRefusal, keyVerdict } from '../../../common/domain/outcomes';
import { translator } from '../../../main/i18n';

describe('a refusal at the door, by how the profile authenticates', () => {
  it('a gateway 401 on a profile that does not sign is not a signature problem: its account or key was refused, fixed in Profiles', () => {
    const verdict = keyVerdict(null, 'signature-rejected')!;
    expect(authRefusal(verdict.kind, 'off')).toBe('unsigned');
    expect(authFixPlace(authRefusal(verdict.kind, 'off'))).toBe('profiles');
  });

  it('a refused signature of a signing profile is fixed in the signature workbench (the key may be right)', () => {
    for (const signing of ['spec', 'apisix'] as const) {
      expect(authRefusal('signature', signing)).toBe('signature');
      expect(authFixPlace('signature')).toBe('signature');
    }
  });

  it("the provider's code 401 refuses the API ID or the key, whatever the signing", () => {
    for (const signing of ['off', 'spec', 'apisix'] as const) {
      expect(authRefusal(keyVerdict(401, null)!.kind, signing)).toBe('credentials');
    }
    expect(authFixPlace('credentials')).toBe('profiles');
  });

  it.each(['en', 'zh-CN'] as const)('the advice names the place its button opens (%s)', (lang) => {
    const t = translator(lang);
    const unsigned = t('provider.signature.action', { context: 'unsigned' });
    expect(unsigned).not.toBe(t('provider.signature.action'));
    expect(t('provider.signature.meaning', { context: 'unsigned' })).not.toBe(t('provider.signature.meaning'));
  });
});
