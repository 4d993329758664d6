// The small vocabularies the records, the reasons and the bulk types share (so that none of them
// imports another): kinds of transport failure, of spreadsheet row problem, of batch stop.

/** How a request failed in transit. */
export type TransportErrorKind = 'dns' | 'refused' | 'connect-timeout' | 'tls' | 'timeout' | 'reset' | 'aborted' | 'too-large' | 'network';

/** What can be wrong with a spreadsheet row. */
export const ISSUE_KINDS = ['missing-mobile', 'bad-mobile', 'missing-value', 'empty-text', 'too-long', 'duplicate', 'same-mobile'] as const;

export type IssueKind = (typeof ISSUE_KINDS)[number];

/** Why a batch stopped running (paused or cancelled). Stable strings: the UI shows them translated. */
export type StopReason =
  'user' | 'interrupted' | 'closed' | 'insufficient-balance' | 'content-not-approved' | 'credentials' | 'provider-unreachable' | 'too-many-unknown' | 'profile';
