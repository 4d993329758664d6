// What a running Callout committed, read (or seeded) through a connection of the test's own on the
// same data directory — as a second process would see it (WAL: committed rows are visible at once).
// The running services never hand out their store: see ServicesOptions.testOnlyWrapStore for the
// one fault-injection hook.
import { openStore, type Store } from '../../main/store';
import { unpackRow } from '../../main/store/exchange-pack';

const open = new Set<Store>();

/** A second connection on `home`; close it with closeStored() in the test's teardown. */
export function storedIn(home: string): Store {
  const store = openStore(home);
  open.add(store);
  return store;
}

/** Closes every connection storedIn() opened (call it in afterEach/afterAll, before the data directory goes). */
export function closeStored(): void {
  for (const store of open) store.close();
  open.clear();
}

/** Reads (or seeds) once through a connection opened and closed around `use`. */
export function withStore<T>(home: string, use: (store: Store) => T): T {
  const store = openStore(home);
  try {
    return use(store);
  } finally {
    store.close();
  }
}

/**
 * The exchanges table's rows as stored, with each packed row's parts unpacked (migration 0020): what
 * a check of "what the file holds" must read, since a packed row's text is deflated in its blob.
 */
export function exchangeRows(store: Store, where = '1 = 1', ...params: unknown[]): Record<string, unknown>[] {
  const rows = store.db.prepare(`SELECT * FROM exchanges WHERE ${where} ORDER BY id`).all(...params) as Record<string, unknown>[];
  return rows.map((row) => {
    const { packed: _packed, dict_id: _dict, ...columns } = unpackRow(store.db, row as Record<string, unknown> & { packed?: Buffer | null });
    return columns;
  });
}
