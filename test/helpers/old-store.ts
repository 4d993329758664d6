// A store as an early version of Callout wrote it (schema 4: before the search indexes, the sizes
// and the sums), for the upgrade's tests: `messages` calls, each with its send and one status query,
// a call every half hour (months of them).
import { openDatabase } from '../../main/store/database';

export function writeOldStore(file: string, messages: number): string {
  const db = openDatabase(file, { targetVersion: 4 });
  const message = db.prepare(
    `INSERT INTO messages (id, profile, base_url, api_id, mobile, content, units, outcome, state, billed_units, created_at, updated_at)
     VALUES (?, 'p', 'http://x', 'id', ?, ?, 1, 'accepted', 'answered', 1, ?, ?)`,
  );
  const exchange = db.prepare(
    `INSERT INTO exchanges (message_id, operation, method, url, request_headers, request_body, status, response_headers, response_body, started_at, timings)
     VALUES (?, ?, 'POST', 'http://x/voice', '[["Content-Type","application/json"]]', ?, 200, '[]', ?, ?, '{}')`,
  );
  db.transaction(() => {
    for (let i = 1; i <= messages; i++) {
      const at = Date.UTC(2025, 0, 1) + i * 1_800_000;
      const mobile = `138${String(i).padStart(8, '0')}`;
      message.run(i, mobile, `通知 ${i}：机房温度过高`, at, at);
      exchange.run(i, 'send', `{"mobile":"${mobile}"}`, `{"code":2,"smsid":"s${i}"}`, at);
      exchange.run(i, 'status', null, `{"code":2,"data":{"state":"answered","id":"s${i}"}}`, at + 8_000);
    }
  })();
  db.close();
  return file;
}
