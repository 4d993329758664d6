import { afterEach, describe, expect, it } from 'vitest';
import { ContactService } from '../../../main/dial/contacts';
import { openStore } from '../../../main/store';
import { ContactRepository } from '../../../main/store/contact-repository';
import { tempHome } from '../../helpers/temp-home';

const cleanups: Array<() => void> = [];
afterEach(() =>
  cleanups
    .splice(0)
    .reverse()
    .forEach((c) => c()),
);

function service() {
  const home = tempHome();
  let clock = 1_000;
  const store = openStore(home.dir);
  cleanups.push(home.cleanup, () => store.close());
  // A repository whose clock we move, so "recent" is deterministic.
  const contacts = new ContactService(new ContactRepository(store.db, () => clock));
  return { contacts, tick: () => (clock += 1000) };
}

describe('contacts', () => {
  it('stores the number normalised and refuses what is not a contact', () => {
    const { contacts } = service();
    const c = contacts.save({ name: ' 张三 ', mobile: '+86 138-0013-8000', note: 'DBA' });
    expect(c).toMatchObject({ name: '张三', mobile: '13800138000', favourite: false, note: 'DBA', groupIds: [] });
    expect(() => contacts.save({ name: '', mobile: '13800138000' })).toThrow(
      expect.objectContaining({ code: 'invalid-input', issues: [{ path: 'name', message: 'name-required' }] }),
    );
    expect(() => contacts.save({ name: 'x', mobile: '138-1234-567' })).toThrow(
      expect.objectContaining({ code: 'invalid-input', issues: [{ path: 'mobile', message: 'wrong-length' }] }),
    );
    expect(() => contacts.save({ name: 'x', mobile: '010-1234567' })).toThrow(
      expect.objectContaining({ code: 'invalid-input', issues: [{ path: 'mobile', message: 'landline' }] }),
    );
    expect(() => contacts.save({ id: 999, name: 'x', mobile: '13800138000' })).toThrow(
      expect.objectContaining({ code: 'not-found', params: { kind: 'contact', id: '#999' } }),
    );
    expect(contacts.setFavourite(c.id, true).favourite).toBe(true);
    expect(contacts.remove(c.id)).toBe(true);
    expect(contacts.list()).toEqual([]);
  });

  it('searches name, initials, number and note; favourites first, then the recently called', () => {
    const { contacts, tick } = service();
    const zhang = contacts.save({ name: '张伟', mobile: '13800138001', note: 'database on-call' });
    const wei = contacts.save({ name: 'Wei Zhang', mobile: '13900139002' });
    const li = contacts.save({ name: '李娜', mobile: '13700137003', favourite: true, note: 'network' });
    contacts.save({ name: '王芳', mobile: '13600136004' });
    expect(contacts.search('张').map((m) => m.contact.name)).toEqual(['张伟']);
    expect(contacts.search('wz').map((m) => [m.contact.name, m.matched])).toEqual([['Wei Zhang', 'initials']]);
    expect(contacts.search('0137').map((m) => m.contact.name)).toEqual(['李娜']);
    expect(contacts.search('NETWORK').map((m) => [m.contact.name, m.matched])).toEqual([['李娜', 'note']]);
    expect(contacts.search('nobody')).toEqual([]);
    // Everyone: the favourite first, then by name.
    expect(contacts.search('').map((m) => m.contact.name)[0]).toBe('李娜');
    // "1" matches all four numbers: favourite, then most recently called, then the rest.
    tick();
    contacts.rememberTemplate(wei.id, 'tpl', ['a']);
    tick();
    contacts.rememberTemplate(zhang.id, 'tpl', ['b']);
    expect(
      contacts
        .search('13')
        .map((m) => m.contact.id)
        .slice(0, 3),
    ).toEqual([li.id, zhang.id, wei.id]);
  });

  it('finds Chinese names by their pinyin: full syllables, initials, or a mix (王工 by "wg", "wang", "wanggong")', () => {
    const { contacts } = service();
    contacts.save({ name: '王工', mobile: '13800138005' });
    contacts.save({ name: '李雷', mobile: '13800138006' });
    contacts.save({ name: '汪国强', mobile: '13800138007' });
    for (const q of ['wg', 'WG', 'wang', 'wanggong', 'wang gong', 'wangg']) {
      expect(
        contacts.search(q).map((m) => m.contact.name),
        q,
      ).toContain('王工');
    }
    expect(contacts.search('wg').map((m) => [m.contact.name, m.matched])).toEqual(
      expect.arrayContaining([
        ['王工', 'pinyin'],
        ['汪国强', 'pinyin'],
      ]),
    );
    expect(contacts.search('ll').map((m) => m.contact.name)).toEqual(['李雷']);
    expect(contacts.search('gw')).toEqual([]);
    // The CLI's `callout dial wanggong` finds the one contact.
    expect(contacts.resolve('wanggong').name).toBe('王工');
  });

  it('remembers the last template and values used for a contact', () => {
    const { contacts } = service();
    const c = contacts.save({ name: 'A', mobile: '13800138000' });
    contacts.rememberTemplate(c.id, 'alert', ['db1', 'disk full']);
    expect(contacts.get(c.id)).toMatchObject({ lastTemplateId: 'alert', lastValues: ['db1', 'disk full'] });
    expect(contacts.get(c.id).lastCalledAt).not.toBeNull();
  });

  it('resolves what a person typed: #id, exact name, number, or a single best match; says when it is ambiguous', () => {
    const { contacts } = service();
    const a = contacts.save({ name: 'Alice Chen', mobile: '13800138001' });
    const b = contacts.save({ name: 'Alan Chu', mobile: '13800138002' });
    expect(contacts.resolve(`#${a.id}`).id).toBe(a.id);
    expect(contacts.resolve('alan chu').id).toBe(b.id);
    expect(contacts.resolve('138 0013 8002').id).toBe(b.id);
    expect(contacts.resolve('Alic').id).toBe(a.id);
    expect(() => contacts.resolve('Al')).toThrow(
      expect.objectContaining({ code: 'contact-ambiguous', params: expect.objectContaining({ query: 'Al', count: 2 }) }),
    );
    expect(() => contacts.resolve('Zed')).toThrow(expect.objectContaining({ code: 'not-found' }));
  });

  it('keeps groups in their calling order, and drops a deleted contact from them', () => {
    const { contacts } = service();
    const a = contacts.save({ name: 'A', mobile: '13800138001' });
    const b = contacts.save({ name: 'B', mobile: '13800138002' });
    const c = contacts.save({ name: 'C', mobile: '13800138003' });
    const g = contacts.saveGroup({ name: 'DB on-call', memberIds: [c.id, a.id, b.id] });
    expect(g.memberIds).toEqual([c.id, a.id, b.id]);
    expect(contacts.get(a.id).groupIds).toEqual([g.id]);
    expect(() => contacts.saveGroup({ name: 'db ON-CALL', memberIds: [] })).toThrow(
      expect.objectContaining({ code: 'invalid-input', issues: [{ path: 'name', message: 'name-taken' }] }),
    );
    expect(() => contacts.saveGroup({ name: 'x', memberIds: [999] })).toThrow(
      expect.objectContaining({ code: 'not-found', params: { kind: 'contact', id: '#999' } }),
    );
    contacts.remove(a.id);
    expect(contacts.getGroup(g.id).memberIds).toEqual([c.id, b.id]);
    expect(contacts.saveGroup({ id: g.id, name: 'Renamed', memberIds: [b.id, c.id] })).toMatchObject({ name: 'Renamed', memberIds: [b.id, c.id] });
    expect(contacts.removeGroup(g.id)).toBe(true);
  });
});
