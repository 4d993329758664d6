// The teach flow's model, without React: a parsed reply as a tree (fields holding JSON texts open
// up), where a picked field goes in the dialect (relative to the record or receipt it belongs to),
// and how mapped values change it. The dialect is then checked by main like any other.
import type { Dialect, DialectPaths, MappableState, StateMap } from '../../../../common/dialects';
import type { DialectPreview, ResolveCount } from '../../../../common/contract';
import type { Operation } from '../../../../common/records';

export type TeachTarget = 'id' | 'count' | 'state' | 'duration' | 'units';

export interface TreeNode {
  /** The node's place: a dialect path. */
  key: string;
  name: string;
  kind: 'object' | 'list' | 'json-text' | 'value';
  /** A scalar's value as text (values only). */
  text?: string;
  children?: TreeNode[];
}

const MAX_CHILDREN = 200;
const MAX_DEPTH = 8;

function jsonText(v: unknown): unknown {
  if (typeof v !== 'string') return undefined;
  const t = v.trim();
  if (!(t.startsWith('{') || t.startsWith('['))) return undefined;
  try {
    const parsed: unknown = JSON.parse(t);
    return parsed && typeof parsed === 'object' ? parsed : undefined;
  } catch {
    return undefined;
  }
}

function childrenOf(value: unknown, path: string, depth: number): TreeNode[] {
  if (depth > MAX_DEPTH || !value || typeof value !== 'object') return [];
  const entries: [string, unknown][] = Array.isArray(value) ? value.map((v, i) => [String(i), v]) : Object.entries(value as Record<string, unknown>);
  return entries.slice(0, MAX_CHILDREN).map(([name, v]) => nodeOf(name, v, path === '' ? name : `${path}.${name}`, depth + 1));
}

function nodeOf(name: string, value: unknown, key: string, depth: number): TreeNode {
  const inner = jsonText(value);
  if (inner !== undefined) return { key, name, kind: 'json-text', children: childrenOf(inner, key, depth) };
  if (Array.isArray(value)) return { key, name, kind: 'list', children: childrenOf(value, key, depth) };
  if (value && typeof value === 'object') return { key, name, kind: 'object', children: childrenOf(value, key, depth) };
  return { key, name, kind: 'value', text: value === null ? 'null' : String(value) };
}

/** The parsed body as tree nodes (its top-level fields). */
export function treeOf(body: unknown): TreeNode[] {
  const inner = jsonText(body) ?? body;
  return childrenOf(inner, '', 0);
}

/** What can be picked in a reply of this kind. */
export function targetsFor(operation: Operation): TeachTarget[] {
  return operation === 'balance' ? ['units'] : operation === 'send' ? ['id', 'count'] : ['state', 'duration'];
}

const list = (p: DialectPaths | undefined): string[] => (p === undefined ? [] : typeof p === 'string' ? [p] : p);

/** Where receipts' states are mapped: the receipt's own values when it has them (or there is no status), else the status values it shares. */
function receiptOwnsStates(d: Dialect): boolean {
  return d.receipt?.states !== undefined || !d.status;
}

/** The places the dialect reads now for one target (the first is what it writes). */
export function pathsOf(d: Dialect, operation: Operation, target: TeachTarget): string[] {
  if (target === 'units') return list(d.balance?.units);
  if (target === 'id' || target === 'count') return list(d.send[target]);
  const section = operation === 'receipt' ? d.receipt : d.status;
  if (!section) return [];
  if (target === 'state') return list(section.state);
  // A duration computed (from two times, or in another unit) is not one place to teach.
  const duration = section.duration;
  return typeof duration === 'object' && !Array.isArray(duration) ? [] : list(duration);
}

/**
 * A picked field as the dialect writes it: relative to the status record (or the receipt) when it
 * is inside one — the dialect looks fields up in the record first — with a list position in front
 * dropped (the record is chosen by ID, or is the first).
 */
export function relativePath(d: Dialect, operation: Operation, picked: string): string {
  const prefixes = operation === 'status' ? list(d.status?.record) : operation === 'receipt' ? list(d.receipt?.list) : [];
  let rest = picked;
  for (const p of prefixes) {
    if (p && picked.startsWith(`${p}.`)) {
      rest = picked.slice(p.length + 1);
      break;
    }
  }
  // A receipt list without a name (a JSON list posted as it is), or a record that is a list: drop the position.
  if (operation !== 'balance' && operation !== 'send' && /^\d+\./.test(rest)) rest = rest.replace(/^\d+\./, '');
  return rest;
}

/** The dialect with a picked field for a target (it becomes the one place read). */
export function applyPick(d: Dialect, operation: Operation, target: TeachTarget, picked: string): Dialect {
  const path = relativePath(d, operation, picked);
  if (target === 'units') return { ...d, balance: { units: path } };
  if (target === 'id' || target === 'count') return { ...d, send: { ...d.send, [target]: path } };
  if (operation === 'receipt') {
    if (!d.receipt) return d;
    return { ...d, receipt: { ...d.receipt, [target]: path } };
  }
  if (!d.status) return d;
  return { ...d, status: { ...d.status, [target]: path } };
}

/** The values the dialect maps for this kind of reply. */
export function statesOf(d: Dialect, operation: Operation): StateMap {
  if (operation === 'send' || operation === 'balance') return {};
  if (operation === 'receipt' && receiptOwnsStates(d)) return d.receipt?.states ?? {};
  return d.status?.states ?? {};
}

/** The dialect with one value mapped to a state (or no longer mapped: null). */
export function applyMapping(d: Dialect, operation: Operation, value: string, state: MappableState | null): Dialect {
  if (operation === 'send' || operation === 'balance') return d;
  const next: StateMap = { ...statesOf(d, operation) };
  if (state === null) delete next[value];
  else next[value] = state;
  if (operation === 'receipt' && receiptOwnsStates(d) && d.receipt) return { ...d, receipt: { ...d.receipt, states: next } };
  if (!d.status) return d;
  return { ...d, status: { ...d.status, states: next } };
}

/** The dialect as a profile's own: no built-in id, a name that says it was taught. */
export function ownDialect(d: Dialect, name: string): Dialect {
  const { id: _id, ...rest } = d;
  return { ...rest, name: name.trim() || d.name };
}

/** The kinds of captured replies a preview counts, in the order the drawer lists them. */
export const PREVIEW_KINDS = ['sends', 'status', 'receipts', 'balance'] as const;
export type PreviewKind = (typeof PREVIEW_KINDS)[number];

/**
 * The kinds of captured replies the candidate reads fewer of than the profile's dialect does now
 * (a mapping removed, a field moved): saving it would leave calls that read today unread.
 */
export function readsFewer(preview: Pick<DialectPreview, PreviewKind>): Array<{ kind: PreviewKind } & ResolveCount> {
  return PREVIEW_KINDS.flatMap((kind) => (preview[kind].resolved < preview[kind].before ? [{ kind, ...preview[kind] }] : []));
}
