// The one handler table: channel → (parsed input) → output. Used by ipcMain (main/ipc.ts), the
// browser test bridge (test/e2e) and the CLI (main/cli). Its keys equal the contract's channels.
import type { BalanceView, Channel, ConsoleResult, FailureView, ImportResult, OutputOf, ParsedInputOf, RecentsView, SendView, StatusView, TemplateView } from '../common/contract';
import { toCsv, toCurl, toHar } from './export';
import { VoiceClient } from './voice/client';
import { describeCode } from '../common/domain/codes';
import { matchTemplate, parseTemplate } from '../common/domain/templates';
import type { MessageRecord } from '../common/records';
import {
  checkVectors,
  diagnoseSignature,
  exportVector,
  parseCapturedRequest,
  parseHttpDate,
  parseVectorFile,
  probeServerClock,
  probeSignatureVariant,
  serializeVectorFile,
  signRequest,
  vectorKeyRefs,
  verifyRequest,
} from './signing';
import type { Services } from './services';
import type { TemplateRecord } from './store/template-repository';
import type { ClientFailure } from './voice/client';
import { ProfileError } from './profiles/profile-service';

export type Handlers = { [C in Channel]: (input: ParsedInputOf<C>) => Promise<OutputOf<C>> };

function failureView(f: ClientFailure | null): FailureView | null {
  if (!f) return null;
  return { kind: f.kind === 'transport' ? f.transportKind : f.kind, outcome: f.outcome, message: f.message };
}

function templateView(t: TemplateRecord): TemplateView {
  return { ...t, markerCount: parseTemplate(t.content).markerCount };
}

export function createHandlers(services: Services): Handlers {
  const { profiles, messages, store } = services;

  const keyFor = async (key: { profileId: string } | { adHoc: string }) => ('adHoc' in key ? key.adHoc : (await profiles.endpoint(key.profileId)).apiKey);

  const parseNow = (now: string | undefined, path = 'now'): Date | undefined => {
    if (now === undefined) return undefined;
    const d = parseHttpDate(now);
    if (!d) throw new ProfileError('invalid-input', 'The comparison time is not an HTTP date.', [{ path, message: 'date-invalid' }]);
    return d;
  };

  const calls = () => {
    if (!services.calls) throw new ProfileError('invalid-input', 'Bulk sends and quick dial are not available here.');
    return services.calls;
  };

  const exchange = (id: number) => {
    const e = store.history.exchange(id);
    if (!e) throw new ProfileError('not-found', `There is no exchange #${id}.`);
    return e;
  };

  const message = (id: number) => {
    const m = store.messages.get(id);
    if (!m) throw new ProfileError('not-found', `There is no message #${id}.`);
    return m;
  };

  const send = async (profileId: string, input: { mobile: string; content: string; templateId: string | null; resendOf?: number }): Promise<SendView> => {
    const endpoint = await profiles.endpoint(profileId);
    const r = await messages.send(endpoint, input);
    if (r.message.outcome === 'accepted') services.tracker?.track(r.message.id);
    return { message: r.message, code: r.reply ? describeCode(r.reply.code) : null, failure: failureView(r.failure) };
  };

  return {
    'app.info': async () => services.info(),
    'app.setLocale': async ({ locale }) => {
      services.setLocale(locale);
      return { locale };
    },

    'profiles.list': () => profiles.list(),
    'profiles.save': (input) => profiles.save(input),
    'profiles.remove': async ({ id }) => ({ removed: await profiles.remove(id) }),
    'profiles.setKey': ({ id, apiKey }) => profiles.setKey(id, apiKey),
    'profiles.deleteKey': ({ id }) => profiles.deleteKey(id),

    'templates.list': async () => store.templates.list().map(templateView),
    'templates.save': async (input) => templateView(store.templates.save(input)),
    'templates.import': async ({ templates }): Promise<ImportResult> => {
      const errors: ImportResult['errors'] = [];
      let saved = 0;
      store.db.transaction(() => {
        templates.forEach((t, index) => {
          try {
            store.templates.save({ ...t, id: t.id || undefined });
            saved++;
          } catch (error) {
            errors.push({ index, message: error instanceof Error ? error.message : String(error) });
          }
        });
      })();
      return { saved, errors };
    },
    'templates.remove': async ({ id }) => ({ removed: store.templates.remove(id) }),

    'messages.send': ({ profileId, mobile, content, templateId }) => send(profileId, { mobile, content, templateId: templateId ?? null }),
    'messages.sendAgain': async ({ id }) => {
      const original: MessageRecord = message(id);
      if (original.outcome === 'pending' || (original.outcome === 'accepted' && original.endedAt === null)) {
        throw new ProfileError('invalid-input', `Message #${id} is still in progress; wait for its result before sending again.`, [{ path: 'id', message: 'still-in-progress' }]);
      }
      return send(original.profile, { mobile: original.mobile, content: original.content, templateId: original.templateId, resendOf: original.id });
    },
    'messages.recents': async (): Promise<RecentsView> => {
      const lastValues: Record<string, string[]> = {};
      for (const { templateId, content } of store.messages.latestPerTemplate()) {
        const t = store.templates.get(templateId);
        const values = t && matchTemplate(content, t.content);
        if (values) lastValues[templateId] = values;
      }
      return { mobiles: store.messages.recentMobiles(10), lastValues };
    },
    'messages.refreshStatus': async ({ id }) => {
      const m = message(id);
      if (!m.smsid) return m;
      const r = await messages.status(await profiles.endpoint(m.profile), m.smsid);
      return r.message ?? m;
    },
    'messages.queryStatus': async ({ profileId, smsid }): Promise<StatusView> => {
      const r = await messages.status(await profiles.endpoint(profileId), smsid);
      return {
        smsid: r.reply?.smsid ?? smsid,
        providerCode: r.reply?.code ?? null,
        msg: r.reply?.msg ?? null,
        code: r.reply ? describeCode(r.reply.code) : null,
        state: r.reply?.code === 2 ? r.reply.state : 'unknown',
        duration: r.reply?.code === 2 ? r.reply.duration : null,
        raw: r.reply?.raw ?? null,
        message: r.message,
        failure: failureView(r.failure),
      };
    },
    'messages.get': async ({ id }) => ({ message: message(id), events: store.messages.events(id), exchanges: store.exchanges.forMessage(id) }),

    'history.query': async (input) => store.messages.list(input ?? {}),

    'history.page': async ({ filter, ...page }) => store.history.page(filter, page),
    'history.overview': async (input) => store.history.overview(input),
    'history.exportCsv': async ({ filter, lang, utcOffsetMinutes, limit = 100_000 }) => {
      const rows: MessageRecord[] = [];
      let cursor: string | null = null;
      do {
        const page = store.history.page(filter, { limit: Math.min(1000, limit - rows.length), cursor });
        rows.push(...page.rows);
        cursor = page.nextCursor;
      } while (cursor && rows.length < limit);
      const profileNames = Object.fromEntries(store.profiles.list().map((p) => [p.id, p.name]));
      const templateNames = Object.fromEntries(store.templates.list().map((t) => [t.id, t.name]));
      return { csv: toCsv(rows, lang, { utcOffsetMinutes, profileNames, templateNames }), rows: rows.length, capped: cursor !== null };
    },

    'exchanges.list': async (query) => store.history.listExchanges(query),
    'exchanges.get': async ({ id }) => exchange(id),
    'exchanges.curl': async ({ id }) => ({ command: toCurl(exchange(id)) }),
    'exchanges.copyCurlWithKey': async ({ id }) => {
      const e = exchange(id);
      if (!services.clipboard) throw new ProfileError('invalid-input', 'There is no clipboard here.');
      if (!e.profile) throw new ProfileError('not-found', 'This exchange belongs to no profile, so there is no key to put in it.');
      const endpoint = await profiles.endpoint(e.profile);
      // The key goes from main straight to the clipboard; only "copied" goes back.
      services.clipboard.writeText(toCurl(e, { apiKey: endpoint.apiKey, signing: endpoint.signing ?? undefined }));
      return { copied: true as const };
    },
    'exchanges.exportHar': async ({ ids }) => {
      const list = ids.map(exchange);
      return { json: JSON.stringify(toHar(list, { name: 'Callout', version: services.version }), null, 2), entries: list.length };
    },

    'console.send': async ({ profileId, path, fields, format, signing }): Promise<ConsoleResult> => {
      const base = await profiles.endpoint(profileId);
      const endpoint = { ...base, format, signing: signing === 'profile' ? base.signing : signing === 'off' ? null : signing };
      const r = await new VoiceClient(endpoint).raw(path, fields);
      let last = null;
      for (const e of r.exchanges) last = store.exchanges.insert(e, { profile: profileId });
      return { exchange: exchange(last!), reply: r.reply, failure: failureView(r.failure) };
    },

    'store.status': async () => ({ retention: store.retention.settings(), usage: store.retention.usage(), recovered: store.recovered }),
    'store.setRetention': async (settings) => store.retention.setSettings(settings),
    'store.applyRetention': async () => store.retention.apply(),
    'store.vacuum': async () => store.retention.vacuum(),

    'bulk.open': async ({ templateId, file, mapping, profileId }) => {
      // The estimate is checked against the balance when a profile is named and its balance can be read.
      let balance: number | null = null;
      if (profileId) {
        const r = await messages.balance(await profiles.endpoint(profileId)).catch(() => null);
        balance = r?.reply?.code === 2 ? r.reply.units : null;
      }
      return calls().bulk.open({ name: file.name, bytes: Buffer.from(file.base64, 'base64') }, templateId, mapping, { balance });
    },
    'bulk.remap': async ({ importId, mapping, templateId }) => calls().bulk.remap(importId, mapping, templateId),
    'bulk.issues': async ({ importId, ...q }) => calls().bulk.issues(importId, q),
    'bulk.create': async ({ importId, ...input }) => calls().bulk.createBatch(importId, input),
    'bulk.discard': async ({ importId }) => ({ discarded: calls().bulk.discard(importId) }),
    'bulk.list': async (input) => calls().queue.list(input?.limit),
    'bulk.progress': async ({ batchId }) => calls().queue.progress(batchId),
    'bulk.start': async ({ batchId }) => calls().queue.start(batchId),
    'bulk.pause': async ({ batchId }) => calls().queue.pause(batchId),
    'bulk.resume': async ({ batchId }) => calls().queue.resume(batchId),
    'bulk.cancel': async ({ batchId }) => calls().queue.cancel(batchId),
    'bulk.items': async ({ batchId, ...q }) => calls().queue.items(batchId, q),
    'bulk.unknown': async ({ batchId }) => calls().queue.unknownItems(batchId),
    'bulk.requeue': async ({ batchId, itemIds }) => ({ requeued: calls().queue.requeue(batchId, itemIds, { confirm: true }) }),
    'bulk.skip': async ({ batchId, itemIds }) => ({ skipped: calls().queue.skip(batchId, itemIds) }),
    'bulk.export': async ({ batchId }) => {
      const batch = calls().queue.get(batchId);
      return { fileName: `callout-batch-${batch.id}.csv`, csv: calls().queue.exportCsv(batchId) };
    },
    'bulk.remove': async ({ batchId }) => ({ removed: calls().queue.remove(batchId) }),
    'profiles.setLines': async ({ id, lines }) => {
      profiles.record(id);
      store.dialSettings.setProfileLines(id, lines);
      calls().governors.for(id);
      return { lines: store.dialSettings.profileLines(id) };
    },

    'contacts.list': async () => calls().contacts.list(),
    'contacts.search': async ({ query, limit }) => calls().contacts.search(query, limit),
    'contacts.save': async (input) => calls().contacts.save(input),
    'contacts.remove': async ({ id }) => ({ removed: calls().contacts.remove(id) }),
    'contacts.setFavourite': async ({ id, favourite }) => calls().contacts.setFavourite(id, favourite),
    'contacts.groups': async () => calls().contacts.listGroups(),
    'contacts.saveGroup': async (input) => calls().contacts.saveGroup(input),
    'contacts.removeGroup': async ({ id }) => ({ removed: calls().contacts.removeGroup(id) }),

    'dial.plan': async (req) => calls().dialer.plan(req),
    'dial.start': async (req) => calls().dialer.start(req),
    'dial.cancel': async ({ runId }) => ({ cancelled: calls().dialer.cancel(runId) }),
    'dial.active': async () => calls().dialer.active(),
    'dial.settings': async (input) => store.dialSettings.effective(input?.profileId ?? null),
    'dial.saveSettings': async (settings) => store.dialSettings.save(settings),

    'balance.query': async ({ profileId }): Promise<BalanceView> => {
      const r = await messages.balance(await profiles.endpoint(profileId));
      const threshold = profiles.record(profileId).lowBalanceThreshold;
      const units = r.reply?.code === 2 ? r.reply.units : null;
      return {
        profileId,
        units,
        raw: r.reply?.raw ?? null,
        code: r.reply ? describeCode(r.reply.code) : null,
        failure: failureView(r.failure),
        low: units !== null && threshold !== null && units <= threshold,
        checkedAt: Date.now(),
      };
    },

    'signature.compute': async (i) => {
      if (i.date !== undefined && !parseHttpDate(i.date)) throw new ProfileError('invalid-input', 'The date is not an HTTP date.', [{ path: 'date', message: 'date-invalid' }]);
      return signRequest({ apiId: i.apiId, apiKey: await keyFor(i.key), method: i.method, url: i.url, date: i.date, variant: i.variant });
    },
    'signature.diagnose': async (i) => {
      const expectedApiId = i.expectedApiId ?? ('profileId' in i.key ? profiles.record(i.key.profileId).apiId : undefined);
      return diagnoseSignature({
        method: i.method,
        url: i.url,
        host: i.host,
        date: i.date ?? undefined,
        authorization: i.authorization ?? undefined,
        apiKey: await keyFor(i.key),
        expectedApiId,
        variant: i.variant,
        now: parseNow(i.now),
      });
    },
    'signature.parseRequest': async ({ text, defaults }) => parseCapturedRequest(text, defaults),
    'signature.exportVector': async (i) => {
      if (!parseHttpDate(i.date)) throw new ProfileError('invalid-input', 'The date is not an HTTP date.', [{ path: 'date', message: 'date-invalid' }]);
      const apiKey = await keyFor(i.key);
      const steps = signRequest({ apiId: i.apiId, apiKey, method: i.method, url: i.url, date: i.date, variant: i.variant });
      const source = 'profileId' in i.key ? ({ kind: 'profile', profile: profiles.record(i.key.profileId).name } as const) : ({ kind: 'adhoc' } as const);
      return { json: serializeVectorFile([exportVector(steps, { apiId: i.apiId, apiKey, method: i.method, url: i.url, date: i.date, name: i.name }, source)]) };
    },
    'signature.checkVectors': async ({ text }) => {
      const parsed = parseVectorFile(text);
      if (!parsed.ok) {
        throw new ProfileError('invalid-input', [parsed.detail, ...parsed.problems.slice(0, 10)].join(' '), [{ path: 'text', message: parsed.error }]);
      }
      // Keys named by reference ("profile:<name>") come from that profile, inside main.
      const keys = new Map<string, string>();
      const missingKeys: string[] = [];
      for (const ref of vectorKeyRefs(parsed.vectors)) {
        const profile = ref.startsWith('profile:') ? profiles.findByName(ref.slice('profile:'.length)) : undefined;
        const key = profile ? await profiles.endpoint(profile.id).then((e) => e.apiKey, () => null) : null;
        if (key) keys.set(ref, key);
        else missingKeys.push(ref);
      }
      return { results: checkVectors(parsed.vectors, (ref) => keys.get(ref)), missingKeys };
    },
    'signature.probeClock': async ({ profileId }) => {
      const record = profiles.record(profileId);
      const { baseUrl } = await profiles.view(record);
      return probeServerClock(baseUrl, { timeoutMs: record.totalTimeoutMs });
    },
    'signature.probeVariant': async ({ profileId }) => {
      const probe = await probeSignatureVariant(await profiles.endpoint(profileId));
      for (const r of probe.results) if (r.exchange) store.exchanges.insert(r.exchange, { profile: profileId });
      return { accepted: probe.accepted, results: probe.results.map(({ exchange: _exchange, ...rest }) => rest) };
    },
    'signature.verify': async (i) => {
      const now = parseNow(i.now);
      const r = verifyRequest({ method: i.method, url: i.url, host: i.host, date: i.date, authorization: i.authorization, apiKey: await keyFor(i.key), now, variant: i.variant });
      return { valid: r.valid, reason: r.reason, skewSeconds: r.skewSeconds, variant: r.variant };
    },
  };
}
