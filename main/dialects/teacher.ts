// Teaching Callout a provider's dialect from its captured replies: one reply as a tree, and how a
// candidate dialect would read the replies already captured for a profile.
import type { DialectPreview, ReplyTree } from '../../common/contract';
import { SPEC_DIALECT, type Dialect } from '../../common/dialects';
import type { ExchangeRecord } from '../../common/records';
import type { Clock } from '../clock';
import { invalid } from '../errors';
import type { ExchangeLookup } from '../history/exchanges';
import type { ExchangeRepository } from '../store';
import { PREVIEW_LIMIT, previewDialect, replyTree } from './teach';

export interface DialectTeacherDeps {
  exchange: ExchangeLookup;
  exchanges: Pick<ExchangeRepository, 'recentForProfile'>;
  /** A profile's current dialect (throws not-found). */
  dialectOf(profileId: string): Dialect;
  clock: Clock;
}

export class DialectTeacher {
  /** The captured replies the preview reads, kept for a few seconds: the preview runs on every change of a mapping. */
  private readonly recent = new Map<string, { at: number; rows: ExchangeRecord[] }>();

  constructor(private readonly d: DialectTeacherDeps) {}

  reply(exchangeId: number): ReplyTree {
    const e = this.d.exchange(exchangeId);
    if (!['send', 'status', 'balance', 'receipt'].includes(e.operation)) throw invalid(['exchangeId', 'teach-operation']);
    return replyTree(e, e.profile ? this.d.dialectOf(e.profile) : SPEC_DIALECT);
  }

  preview(profileId: string, candidate: Dialect): DialectPreview {
    return previewDialect(this.capturedReplies(profileId), candidate, this.d.dialectOf(profileId));
  }

  private capturedReplies(profileId: string): ExchangeRecord[] {
    const now = this.d.clock.now();
    const hit = this.recent.get(profileId);
    if (hit && now - hit.at < 10_000) return hit.rows;
    const rows = this.d.exchanges.recentForProfile(profileId, ['send', 'status', 'balance', 'receipt'], PREVIEW_LIMIT);
    this.recent.clear();
    this.recent.set(profileId, { at: this.d.clock.now(), rows });
    return rows;
  }
}
