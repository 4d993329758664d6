import { describe, expect, it } from 'vitest';
import * as domain from '../../../common/domain';

describe('common/domain index', () => {
  it('re-exports the agreed API', () => {
    const names = [
      'CONTENT_MIN', 'CONTENT_MAX', 'CHARS_PER_UNIT', 'textLength', 'unitsFor', 'checkContent',
      'normalizeMobile', 'MOBILE_ERRORS', 'maskMobile',
      'MARKER', 'parseTemplate', 'fillTemplate', 'TemplateFillError', 'validateTemplate', 'matchTemplate', 'findMatchingTemplates',
      'RESULT_CODES', 'describeCode', 'SIGNATURE_REJECTED',
      'CALL_STATES', 'FINAL_STATES', 'isFinalState', 'OUTCOMES', 'normalizeCallState', 'CALL_STATE_LABELS', 'OUTCOME_LABELS',
    ];
    for (const name of names) expect(domain, name).toHaveProperty(name);
  });
});
