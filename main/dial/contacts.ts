// Contacts for quick dial: favourites, ordered groups (escalation lists), and the palette's search.
import { normalizeMobile } from '../../common/domain/mobile';
import { fold, matchText } from '../../common/domain/search';
import { fail } from '../errors';
import type { ContactGroupRecord, ContactRecord, ContactRepository } from '../store';
import type { ContactInput, ContactMatch } from '../../common/bulk-types';
export type { ContactInput, ContactMatch } from '../../common/bulk-types';

/** How much each kind of name match counts (the shared rule says how a name matched: common/domain/search). */
const NAME_SCORE = { exact: 100, prefix: 80, initials: 70, pinyin: 70, text: 60 } as const;

/** True when every character of `q` appears in `s` in order. */
function subsequence(q: string, s: string): boolean {
  let i = 0;
  for (const ch of s) if (ch === q[i]) i++;
  return i >= q.length;
}

function score(c: ContactRecord, query: string): ContactMatch | null {
  const q = fold(query.trim());
  if (q === '') return { contact: c, score: 0, matched: 'all' };
  const name = fold(c.name);
  const digits = q.replace(/[\s\-+()]/g, '');
  // The name: itself, its initials, or its pinyin (王工 by "wg", "wang", "wanggong").
  const how = matchText(c.name, q);
  if (how) return { contact: c, score: NAME_SCORE[how], matched: how === 'initials' || how === 'pinyin' ? how : 'name' };
  if (/^\d+$/.test(digits) && c.mobile.includes(digits)) return { contact: c, score: c.mobile.endsWith(digits) ? 55 : 50, matched: 'mobile' };
  if (c.note && matchText(c.note, q)) return { contact: c, score: 30, matched: 'note' };
  if (q.length >= 2 && subsequence(q, name)) return { contact: c, score: 20, matched: 'name' };
  return null;
}

export class ContactService {
  constructor(private readonly repo: ContactRepository) {}

  list(): ContactRecord[] {
    return this.repo.list();
  }

  get(id: number): ContactRecord {
    const c = this.repo.get(id);
    if (!c) throw fail('not-found', { kind: 'contact', id: `#${id}` });
    return c;
  }

  save(input: ContactInput): ContactRecord {
    const issues: { path: string; message: string }[] = [];
    const name = input.name.trim();
    if (!name) issues.push({ path: 'name', message: 'name-required' });
    if (name.length > 60) issues.push({ path: 'name', message: 'name-too-long' });
    const mobile = normalizeMobile(input.mobile);
    if (!mobile.ok) issues.push({ path: 'mobile', message: mobile.error });
    const note = (input.note ?? '').trim();
    if (note.length > 500) issues.push({ path: 'note', message: 'note-too-long' });
    if (issues.length || !mobile.ok) {
      throw fail('invalid-input', {}, issues);
    }
    if (input.id !== undefined) this.get(input.id);
    return this.repo.save({ id: input.id, name, mobile: mobile.mobile, favourite: input.favourite ?? false, note });
  }

  setFavourite(id: number, favourite: boolean): ContactRecord {
    this.get(id);
    return this.repo.setFavourite(id, favourite)!;
  }

  remove(id: number): boolean {
    return this.repo.remove(id);
  }

  /**
   * The quick-dial palette: contacts whose name, name initials, number or note match `query`;
   * favourites first, then the most recently called, then the best match. Empty query: everyone.
   */
  search(query: string, limit = 20): ContactMatch[] {
    const matches: ContactMatch[] = [];
    for (const c of this.repo.list()) {
      const m = score(c, query);
      if (m) matches.push(m);
    }
    matches.sort(
      (a, b) =>
        Number(b.contact.favourite) - Number(a.contact.favourite) ||
        (b.contact.lastCalledAt ?? 0) - (a.contact.lastCalledAt ?? 0) ||
        b.score - a.score ||
        a.contact.name.localeCompare(b.contact.name, 'zh-CN'),
    );
    return matches.slice(0, Math.max(1, limit));
  }

  /**
   * A contact from what a person typed (CLI): "#12" or "12" (id), an exact name, or a search with a
   * single best result. Throws not-found or ambiguous (with the candidates).
   */
  resolve(ref: string): ContactRecord {
    const t = ref.trim();
    const id = /^#?(\d{1,9})$/.exec(t);
    if (id) {
      const c = this.repo.get(Number(id[1]));
      if (c) return c;
    }
    const all = this.repo.list();
    const exact = all.filter((c) => fold(c.name) === fold(t));
    if (exact.length === 1) return exact[0]!;
    const mobile = normalizeMobile(t);
    if (mobile.ok) {
      const byMobile = all.filter((c) => c.mobile === mobile.mobile);
      if (byMobile.length === 1) return byMobile[0]!;
    }
    const found =
      exact.length > 1
        ? exact.map((contact) => ({ contact, score: 100 }))
        : all.map((c) => score(c, t)).filter((m): m is ContactMatch => m !== null && m.score > 0);
    if (found.length === 0) throw fail('not-found', { kind: 'contact', id: t });
    const best = Math.max(...found.map((m) => m.score));
    const top = found.filter((m) => m.score === best);
    if (top.length === 1) return top[0]!.contact;
    throw fail('contact-ambiguous', {
      query: t,
      count: top.length,
      names:
        top
          .slice(0, 5)
          .map((m) => `#${m.contact.id} ${m.contact.name}`)
          .join(', ') + (top.length > 5 ? ', …' : ''),
    });
  }

  listGroups(): ContactGroupRecord[] {
    return this.repo.listGroups();
  }

  getGroup(id: number): ContactGroupRecord {
    const g = this.repo.getGroup(id);
    if (!g) throw fail('not-found', { kind: 'group', id });
    return g;
  }

  /** Creates or updates a group; `memberIds` in calling order (an escalation list). */
  saveGroup(input: { id?: number; name: string; memberIds: readonly number[] }): ContactGroupRecord {
    const name = input.name.trim();
    if (!name || name.length > 60) throw fail('invalid-input', {}, [{ path: 'name', message: 'name-required' }]);
    const clash = this.repo.findGroupByName(name);
    if (clash && clash.id !== input.id) throw fail('invalid-input', {}, [{ path: 'name', message: 'name-taken' }]);
    for (const id of input.memberIds) this.get(id);
    if (input.id !== undefined) this.getGroup(input.id);
    return this.repo.saveGroup({ id: input.id, name, memberIds: [...new Set(input.memberIds)] });
  }

  removeGroup(id: number): boolean {
    return this.repo.removeGroup(id);
  }

  /** Remembers the template and values last used for this contact (the palette prefills them). */
  rememberTemplate(id: number, templateId: string | null, values: readonly string[] | null): void {
    this.repo.touch(id, templateId, values);
  }
}
