// Reply dialects: the built-in ones, checking a dialect file, and teaching one from a captured reply
// (the parsed body as a tree, and a preview that re-reads every captured reply of the profile).
import { z } from 'zod';
import { dialectSchema, type Dialect } from '../dialects/schema';
import type { CallState } from '../domain/status';
import type { Operation } from '../records';
import { id, messageId, none, op } from './define';

/** How many of a profile's captured replies of one kind read to a value, with the candidate dialect and with the profile's own. */
export interface ResolveCount {
  /** Replies of this kind that carry a success code (receipts: receipts). */
  total: number;
  /** Of those, how many read to a state (a balance) with the candidate dialect. */
  resolved: number;
  /** The same with the profile's current dialect. */
  before: number;
}

/** One value seen at the state's place in the captured replies, how often, and what the candidate dialect makes of it. */
export interface SeenValue {
  value: string;
  count: number;
  state: CallState;
  /** Found at this place. */
  path: string | null;
}

export interface DialectPreview {
  /** Send replies that say accepted; resolved: those the message ID is read from. */
  sends: ResolveCount;
  /**
   * Of the send replies the candidate reads an ID from, those whose ID another reply gives too: a
   * field that does not differ per call (a code, "OK"). Callout follows a call by an ID only when it is
   * the call's alone, so those calls cannot be followed by it.
   */
  sendIdsShared: number;
  status: ResolveCount;
  balance: ResolveCount;
  receipts: ResolveCount;
  /** Values seen at the state's place (status replies and receipts), most frequent first. */
  values: SeenValue[];
  /** How many captured exchanges were read (the newest ones, at most 5,000). */
  exchanges: number;
}

/** A captured reply (or receipt), parsed, for the teach flow. */
export interface ReplyTree {
  exchangeId: number;
  operation: Operation;
  profileId: string | null;
  /** The parsed body (a JSON value; fields holding JSON texts are left as they are: the tree opens them). */
  body: unknown;
  /** The dialect the profile reads with now. */
  dialect: Dialect;
}

export const dialectsOps = {
  /** The built-in dialects, the default (the spec's reading) first. */
  'dialects.list': op<Dialect[]>()(none),
  /** Checks a dialect file's text (JSON, schema); its problems come back as issues (dialect-invalid). */
  'dialects.check': op<Dialect>()(z.object({ text: z.string().max(1024 * 1024) }).strict()),
  /** A captured status or balance reply, or a receipt, parsed, with the dialect its profile reads with. */
  'dialects.reply': op<ReplyTree>()(z.object({ exchangeId: messageId }).strict()),
  /** Re-reads every captured reply of the profile (the newest 5,000) with a candidate dialect: how many now resolve. */
  'dialects.preview': op<DialectPreview>()(z.object({ profileId: id, dialect: dialectSchema }).strict()),
};
