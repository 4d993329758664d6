// Never silently unread, in every built-in dialect: the sandbox speaking the dialect says a value for
// a busy line that the dialect does not map (in its status replies, or in its receipts for a
// provider that only pushes); the call is left `unknown` with that value, shown by `callout history`
// and in the app's History (through the handler table) — never guessed.
import { describe, expect, it } from 'vitest';
import { BUILTIN_DIALECTS, builtinDialect, checkDialect, type DialectPaths } from '../../../common/dialects';
import { unmappedValue } from '../../../common/reasons';
import { cli } from '../cli/run-cli';
import { OTP, pushed, rehearsal } from './helpers';

const places = (p: DialectPaths | undefined): string[] => (p === undefined ? [] : typeof p === 'string' ? [p] : p);

describe.each(BUILTIN_DIALECTS.map((d) => d.id!))('%s: a value the dialect does not map', (id) => {
  it('leaves the call unknown with the value, shown by `callout history` and in History', async () => {
    const d = builtinDialect(id)!;
    const strange = `UNMAPPED_${id.toUpperCase().replace(/-/g, '_')}_7`;
    // The provider as the dialect describes it, except that a busy line is said with a value nobody mapped.
    const speaking = JSON.parse(JSON.stringify(d)) as Record<string, unknown> & { shape?: Record<string, unknown> };
    delete speaking.id;
    const values: Record<string, Record<string, string>> = { ...(d.shape?.values ?? {}) };
    const statePlaces = [...places(d.status?.state), ...places(d.receipt?.state), ...(d.receipt?.kinds ?? []).flatMap((k) => places(k.state))];
    for (const p of statePlaces) values[p] = { ...values[p], busy: strange };
    speaking.shape = { ...speaking.shape, values };
    const checked = checkDialect(speaking);
    if (!checked.ok) throw new Error(JSON.stringify(checked.issues));

    const follow = d.status ? 'poll' : 'receipts';
    const { services, call, home } = await rehearsal({ sandboxDialect: checked.dialect, profileDialect: { builtin: id }, follow });
    const profile = (await call('profiles.list')).find((p) => p.name === 'Rehearsal')!;
    const seen = pushed(services, (m) => m.mobile === '13800138001' && unmappedValue(m.reason) !== null, 15_000);
    // The sandbox's script for a number ending in 1: a busy line.
    const sent = await call('messages.send', { profileId: profile.id, mobile: '13800138001', content: OTP });
    expect(sent.message.outcome).toBe('accepted');
    const m = await seen;
    expect(m).toMatchObject({ id: sent.message.id, state: 'unknown' });
    expect(unmappedValue(m.reason)).toBe(strange);

    // The app's History, as the screen asks for it.
    const page = await call('history.page', { filter: {}, limit: 10 });
    const row = page.rows.find((r) => r.id === sent.message.id)!;
    expect(row.state).toBe('unknown');
    expect(unmappedValue(row.reason)).toBe(strange);
    // The CLI, on the same data directory.
    const env = { CALLOUT_HOME: home, LANG: 'en_US.UTF-8' };
    const listed = await cli(['history'], env);
    expect(listed.stdout).toContain(`not recognised: ${strange}`);
    const json = (await cli(['--json', 'history'], env)).json as { id: number; state: string; unmappedValue: string | null }[];
    expect(json.find((r) => r.id === sent.message.id)).toMatchObject({ state: 'unknown', unmappedValue: strange });
  });
});
