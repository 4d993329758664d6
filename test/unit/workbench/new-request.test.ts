// The raw client's new request follows the profile's dialect, and its warning that a send places a
// real call is said wherever that dialect sends.
import { describe, expect, it } from 'vitest';
import { builtinDialect, SPEC_DIALECT } from '../../../common/dialects';
import { isUntouchedNew, NEW_REQUEST, newRequestFor, sendsCall } from '../../../renderer/src/features/workbench/new-request';

const ihuyi = builtinDialect('ihuyi')!;

describe('a new raw request for a profile', () => {
  it('is the dialect’s balance query: ihuyi’s form POST to voice.php?method=GetNum; the spec’s unchanged', () => {
    expect(newRequestFor(ihuyi)).toMatchObject({
      method: 'POST',
      path: '/webservice/voice.php?method=GetNum',
      body: { kind: 'form', fields: [] },
      credentials: 'body',
    });
    expect(newRequestFor(SPEC_DIALECT)).toBe(NEW_REQUEST);
    expect(newRequestFor(null)).toBe(NEW_REQUEST);
  });

  it('follows the profile only while nobody touched it', () => {
    const d = { request: newRequestFor(ihuyi), dirty: false, savedId: null as number | null, name: '', assertions: [], captures: [] };
    expect(isUntouchedNew(d, [ihuyi])).toBe(true);
    expect(isUntouchedNew({ ...d, dirty: true }, [ihuyi])).toBe(false);
    expect(isUntouchedNew({ ...d, savedId: 3 }, [ihuyi])).toBe(false);
    expect(isUntouchedNew({ ...d, request: { ...d.request, path: '/other' } }, [ihuyi])).toBe(false);
  });

  it('warns of a real call for the dialect’s send, not for its balance', () => {
    expect(sendsCall(ihuyi, '/webservice/voice.php?method=Submit')).toBe(true);
    expect(sendsCall(ihuyi, '/webservice/voice.php?method=GetNum')).toBe(false);
    expect(sendsCall(ihuyi, '/voice/vm')).toBe(false);
    expect(sendsCall(undefined, '/voice/vm')).toBe(true);
    expect(sendsCall(SPEC_DIALECT, '/voice/vm?x=1')).toBe(true);
  });
});
