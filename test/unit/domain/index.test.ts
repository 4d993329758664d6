import { describe, expect, it } from 'vitest';
import * as domain from '../../../common/domain';

describe('common/domain index', () => {
  it('re-exports the agreed API', () => {
    const names = [
      'CONTENT_MIN',
      'CONTENT_MAX',
      'CHARS_PER_UNIT',
      'textLength',
      'unitsFor',
      'checkContent',
      'normalizeMobile',
      'mobileDigits',
      'maskMobile',
      'MARKER',
      'parseTemplate',
      'fillTemplate',
      'missingValues',
      'validateTemplate',
      'matchTemplate',
      'findMatchingTemplates',
      'RESULT_CODE_LIST',
      'isResultCode',
      'isSignatureRejection',
      'CALL_STATES',
      'FINAL_STATES',
      'isFinalState',
      'OUTCOMES',
      'normalizeCallState',
      'isSettled',
      'maySendAgain',
      'nextCall',
      'stopsFollowing',
    ];
    for (const name of names) expect(domain, name).toHaveProperty(name);
  });
});
