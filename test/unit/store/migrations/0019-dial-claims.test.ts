import { describe, expect, it } from 'vitest';
import { MIGRATIONS } from '../../../../main/store/migrations';
import { DIAL_CLAIM_MS, DialSettingsRepository } from '../../../../main/store/dial-settings-repository';
import { upgradeTo } from './temp-db';

const MOBILE = '13800138000';
const allow = () => [] as string[];

describe('migration 0019: dial claims', () => {
  it('is the nineteenth migration', () => {
    expect(MIGRATIONS[18]).toMatchObject({ version: 19, name: 'dial-claims' });
  });

  it('keeps the calls already counted, and a claim counts as one more until it is let go', () => {
    const db = upgradeTo(19, (v18) => {
      v18
        .prepare(
          `INSERT INTO messages (profile, base_url, api_id, mobile, content, units, outcome, state, created_at, updated_at) VALUES ('p', 'http://x', 'a', ?, 'x', 1, 'accepted', 'answered', 1000, 1000)`,
        )
        .run(MOBILE);
    });
    const dial = new DialSettingsRepository(db, () => 5000);
    expect(dial.callTimes(MOBILE, 0)).toEqual([1000]);
    const seen: number[][] = [];
    const { refusals, claim } = dial.claimDial(MOBILE, 5000, (times) => (seen.push(times), allow()));
    expect(refusals).toEqual([]);
    expect(seen).toEqual([[1000]]);
    expect(dial.callTimes(MOBILE, 0)).toEqual([1000, 5000]);
    // Refused: nothing is claimed.
    expect(dial.claimDial(MOBILE, 6000, () => ['per-minute'])).toEqual({ refusals: ['per-minute'], claim: null });
    expect(dial.callTimes(MOBILE, 0)).toEqual([1000, 5000]);
    dial.releaseClaim(claim!);
    expect(dial.callTimes(MOBILE, 0)).toEqual([1000]);
  });

  it('a claim its process never let go (it died) counts until it expires, then is cleared', () => {
    const db = upgradeTo(19, () => undefined);
    const dial = new DialSettingsRepository(db, () => 0);
    dial.claimDial(MOBILE, 1000, allow);
    expect(dial.callTimes(MOBILE, 0, 1000 + DIAL_CLAIM_MS - 1)).toEqual([1000]);
    expect(dial.callTimes(MOBILE, 0, 1000 + DIAL_CLAIM_MS)).toEqual([]);
    dial.claimDial(MOBILE, 1000 + DIAL_CLAIM_MS, () => ['quiet-hours']);
    expect(db.prepare('SELECT COUNT(*) AS n FROM dial_claims').get()).toEqual({ n: 0 });
  });
});
