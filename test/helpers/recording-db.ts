// A database as the code under test sees it, recording every statement it runs (its SQL and
// parameters): a test reads the plan of what was really asked, not of a copy of the SQL.
import type { Database } from 'better-sqlite3';

export interface Call {
  sql: string;
  params: unknown[];
}

/** `target` wrapped: statements prepared through `db` are recorded in `calls` as they run. */
export function recording(target: Database): { db: Database; calls: Call[] } {
  const calls: Call[] = [];
  const wrap = (sql: string) => {
    const stmt = target.prepare(sql);
    return new Proxy(stmt, {
      get(t, p) {
        const v = Reflect.get(t, p, t) as unknown;
        if (typeof v !== 'function') return v;
        if (p === 'all' || p === 'get' || p === 'iterate' || p === 'run') {
          return (...args: unknown[]) => {
            calls.push({ sql, params: args });
            return (v as (...a: unknown[]) => unknown).apply(t, args);
          };
        }
        return (v as (...a: unknown[]) => unknown).bind(t);
      },
    });
  };
  const proxy = new Proxy(target, {
    get(t, p) {
      if (p === 'prepare') return wrap;
      const v = Reflect.get(t, p, t) as unknown;
      return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(t) : v;
    },
  });
  return { db: proxy, calls };
}
