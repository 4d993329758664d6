import type { Database } from 'better-sqlite3';
import type { ContactRecord, ContactGroupRecord, ContactFields } from '../../common/bulk-types';
import { systemClock } from '../clock';
export type { ContactRecord, ContactGroupRecord, ContactFields } from '../../common/bulk-types';

interface ContactRow {
  id: number;
  name: string;
  mobile: string;
  favourite: 0 | 1;
  note: string;
  last_template_id: string | null;
  last_values: string | null;
  last_called_at: number | null;
  created_at: number;
  updated_at: number;
  group_ids: string | null;
}

const toContact = (r: ContactRow): ContactRecord => ({
  id: r.id,
  name: r.name,
  mobile: r.mobile,
  favourite: r.favourite === 1,
  note: r.note,
  lastTemplateId: r.last_template_id,
  lastValues: r.last_values === null ? null : (JSON.parse(r.last_values) as string[]),
  lastCalledAt: r.last_called_at,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
  groupIds: r.group_ids ? r.group_ids.split(',').map(Number) : [],
});

const CONTACT_SELECT = `SELECT c.*, (SELECT group_concat(group_id) FROM contact_group_members g WHERE g.contact_id = c.id) AS group_ids FROM contacts c`;

/** Contacts and contact groups. The mobile is stored normalised; callers validate it. */
export class ContactRepository {
  constructor(
    private readonly db: Database,
    private readonly now: () => number = () => systemClock.now(),
  ) {}

  list(): ContactRecord[] {
    return (this.db.prepare(`${CONTACT_SELECT} ORDER BY c.favourite DESC, c.name COLLATE NOCASE, c.id`).all() as ContactRow[]).map(toContact);
  }

  get(id: number): ContactRecord | undefined {
    const r = this.db.prepare(`${CONTACT_SELECT} WHERE c.id = ?`).get(id) as ContactRow | undefined;
    return r && toContact(r);
  }

  findByMobile(mobile: string): ContactRecord[] {
    return (this.db.prepare(`${CONTACT_SELECT} WHERE c.mobile = ? ORDER BY c.id`).all(mobile) as ContactRow[]).map(toContact);
  }

  save(c: ContactFields): ContactRecord {
    const at = this.now();
    if (c.id !== undefined) {
      const changes = this.db
        .prepare('UPDATE contacts SET name = ?, mobile = ?, favourite = ?, note = ?, updated_at = ? WHERE id = ?')
        .run(c.name, c.mobile, c.favourite ? 1 : 0, c.note ?? '', at, c.id).changes;
      if (changes === 0) throw new Error(`Contact ${c.id} does not exist.`);
      return this.get(c.id)!;
    }
    const info = this.db
      .prepare('INSERT INTO contacts (name, mobile, favourite, note, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)')
      .run(c.name, c.mobile, c.favourite ? 1 : 0, c.note ?? '', at, at);
    return this.get(Number(info.lastInsertRowid))!;
  }

  setFavourite(id: number, favourite: boolean): ContactRecord | undefined {
    this.db.prepare('UPDATE contacts SET favourite = ?, updated_at = ? WHERE id = ?').run(favourite ? 1 : 0, this.now(), id);
    return this.get(id);
  }

  remove(id: number): boolean {
    return this.db.prepare('DELETE FROM contacts WHERE id = ?').run(id).changes > 0;
  }

  /** Remembers the template (and values) used to call this contact, and when. */
  touch(id: number, templateId: string | null, values: readonly string[] | null): void {
    const at = this.now();
    this.db
      .prepare(
        'UPDATE contacts SET last_template_id = coalesce(?, last_template_id), last_values = CASE WHEN ? IS NULL THEN last_values ELSE ? END, last_called_at = ? WHERE id = ?',
      )
      .run(templateId, templateId, values ? JSON.stringify(values) : null, at, id);
  }

  listGroups(): ContactGroupRecord[] {
    const groups = this.db.prepare('SELECT * FROM contact_groups ORDER BY name COLLATE NOCASE').all() as {
      id: number;
      name: string;
      created_at: number;
      updated_at: number;
    }[];
    const members = this.db.prepare('SELECT group_id, contact_id FROM contact_group_members ORDER BY group_id, position').all() as {
      group_id: number;
      contact_id: number;
    }[];
    return groups.map((g) => ({
      id: g.id,
      name: g.name,
      memberIds: members.filter((m) => m.group_id === g.id).map((m) => m.contact_id),
      createdAt: g.created_at,
      updatedAt: g.updated_at,
    }));
  }

  getGroup(id: number): ContactGroupRecord | undefined {
    return this.listGroups().find((g) => g.id === id);
  }

  findGroupByName(name: string): ContactGroupRecord | undefined {
    return this.listGroups().find((g) => g.name.toLowerCase() === name.trim().toLowerCase());
  }

  /** Creates or renames a group and sets its members, in order. */
  saveGroup(g: { id?: number; name: string; memberIds: readonly number[] }): ContactGroupRecord {
    const at = this.now();
    const id = this.db.transaction(() => {
      let groupId = g.id;
      if (groupId === undefined) {
        groupId = Number(this.db.prepare('INSERT INTO contact_groups (name, created_at, updated_at) VALUES (?, ?, ?)').run(g.name, at, at).lastInsertRowid);
      } else if (this.db.prepare('UPDATE contact_groups SET name = ?, updated_at = ? WHERE id = ?').run(g.name, at, groupId).changes === 0) {
        throw new Error(`Group ${groupId} does not exist.`);
      }
      this.db.prepare('DELETE FROM contact_group_members WHERE group_id = ?').run(groupId);
      const add = this.db.prepare('INSERT OR IGNORE INTO contact_group_members (group_id, contact_id, position) VALUES (?, ?, ?)');
      g.memberIds.forEach((contactId, position) => add.run(groupId, contactId, position));
      return groupId;
    })();
    return this.getGroup(id)!;
  }

  removeGroup(id: number): boolean {
    return this.db.prepare('DELETE FROM contact_groups WHERE id = ?').run(id).changes > 0;
  }
}
