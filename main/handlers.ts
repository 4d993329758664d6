// The one handler table: channel → (parsed input) → output. Used by ipcMain (main/ipc.ts), the
// browser transport and the CLI. Its keys equal the contract's channels. Each entry only adapts:
// the work is done by the services built in services.ts.
import type { BalanceView, Channel, ImportResult, OutputOf, ParsedInputOf, RecentsView, SendView, StatusView, TemplateView } from '../common/contract';
import { matchTemplate, parseTemplate } from '../common/domain/templates';
import type { MessageRecord } from '../common/records';
import { CalloutError, fail, invalid, isDiskFull, toIpcError } from './errors';
import { toCsv, toCurl, toHar } from './export';
import type { Services } from './services';
import {
  checkVectors,
  diagnoseSignature,
  exportVector,
  parseCapturedRequest,
  parseHttpDate,
  parseVectorFile,
  serializeVectorFile,
  signRequest,
  vectorKeyRefs,
  verifyRequest,
} from './signing';
import type { TemplateRecord } from './store/template-repository';
import { SANDBOX_PROFILE_ID } from './profiles/profile-service';
import { probeServerClock, probeSignatureVariant } from './voice/probes';
import type { SendOutcome } from './calls/call-service';
import type { ReadProgress } from './bulk/import-runner';
import { BUILTIN_DIALECTS, parseDialectText, SPEC_DIALECT } from '../common/dialects';
import type { ExchangeRecord } from '../common/records';
import { PREVIEW_LIMIT, previewDialect, replyTree } from './dialects/teach';
import { unstorableKey } from './secrets/api-key';
import { pagingHandlers } from './paging/ops';

export type Handlers = { [C in Channel]: (input: ParsedInputOf<C>) => Promise<OutputOf<C>> };

function templateView(t: TemplateRecord): TemplateView {
  return { ...t, markerCount: parseTemplate(t.content).markerCount };
}

function sendView(r: SendOutcome): SendView {
  return { message: r.message, providerCode: r.reply?.code ?? null, failure: r.failure };
}

export function createHandlers(services: Services): Handlers {
  const table = handlerTable(services);
  // A write that failed for lack of space, whichever operation ran into it, is said in the app (storageProblem).
  for (const channel of Object.keys(table) as Channel[]) {
    const handler = table[channel] as (input: unknown) => Promise<unknown>;
    (table as Record<Channel, (input: unknown) => Promise<unknown>>)[channel] = async (input) => {
      try {
        return await handler(input);
      } catch (error) {
        if (isDiskFull(error)) services.noteStoreHealth(error);
        throw error;
      }
    };
  }
  return table;
}

function handlerTable(services: Services): Handlers {
  const { profiles, calls, store, workbench } = services;
  const lineSettings = (id: string) => {
    const lendingStoppedAt = services.governors.lendingStoppedAt(id);
    return { lines: store.dialSettings.profileLines(id), lendLines: store.dialSettings.profileLending(id), lendingStopped: lendingStoppedAt !== null, lendingStoppedAt };
  };

  const keyFor = async (key: { profileId: string } | { adHoc: string }) => ('adHoc' in key ? key.adHoc : (await profiles.endpoint(key.profileId)).apiKey);
  /** A typed key is used as given (any non-empty key: a signature debugger); one Callout would not store is said. */
  const keyNote = (key: { profileId: string } | { adHoc: string }) => ('adHoc' in key ? unstorableKey(key.adHoc) : null);

  const httpDate = (value: string | undefined, path: string): Date | undefined => {
    if (value === undefined) return undefined;
    const d = parseHttpDate(value);
    if (!d) throw invalid([path, 'date-invalid']);
    return d;
  };

  const exchange = (id: number) => {
    const e = store.history.exchange(id);
    if (!e) throw fail('not-found', { kind: 'exchange', id });
    return e;
  };

  // The captured replies the teach preview reads, kept for a few seconds: the preview runs on every change of a mapping.
  const recent = new Map<string, { at: number; rows: ExchangeRecord[] }>();
  const capturedReplies = (profileId: string): ExchangeRecord[] => {
    const hit = recent.get(profileId);
    if (hit && services.clock.now() - hit.at < 10_000) return hit.rows;
    const rows = store.exchanges.recentForProfile(profileId, ['status', 'balance', 'receipt'], PREVIEW_LIMIT);
    recent.clear();
    recent.set(profileId, { at: services.clock.now(), rows });
    return rows;
  };

  const message = (id: number): MessageRecord => {
    const m = store.messages.get(id);
    if (!m) throw fail('not-found', { kind: 'message', id });
    return m;
  };

  return {
    ...pagingHandlers(services),
    'app.info': () => services.info(),
    'app.setLocale': async ({ locale }) => {
      services.setLocale(locale);
      return { locale };
    },

    'profiles.list': () => profiles.list(),
    'profiles.save': (input) => profiles.save(input),
    'profiles.remove': async ({ id }) => {
      const removed = await profiles.remove(id);
      // Its receipt listener (if any) stops: nothing can be received for a profile that is gone.
      await services.receipts.sync(id);
      if (removed) store.dialSettings.forgetRedialWait(id);
      return { removed };
    },
    'profiles.setKey': ({ id, apiKey }) => profiles.setKey(id, apiKey),
    'profiles.deleteKey': ({ id }) => profiles.deleteKey(id),
    'profiles.setDialect': async ({ id, dialect }) => {
      const record = profiles.setDialect(id, 'builtin' in dialect ? { builtin: dialect.builtin } : { custom: dialect.custom });
      // A dialect without a status query moved the profile to receipts: its listener starts.
      await services.receipts.sync(id).catch((e: unknown) => services.log(e));
      const reread = calls.reread(id, record.dialect).length;
      return { profile: await profiles.view(profiles.record(id)), reread };
    },
    'profiles.setFollow': async ({ id, follow, host, port, newSecret }) => {
      profiles.setFollow(id, { follow, host, port, newSecret });
      await services.receipts.sync(id, { strict: true });
      return profiles.view(profiles.record(id));
    },
    'profiles.lines': async ({ id }) => {
      profiles.record(id);
      return lineSettings(id);
    },
    'profiles.setLines': async ({ id, lines, lendLines }) => {
      profiles.record(id);
      // Kept in SQLite: a profile that lives only in this process's memory has nowhere to keep them.
      const saved = (lines === undefined || store.dialSettings.setProfileLines(id, lines)) && (lendLines === undefined || store.dialSettings.setProfileLending(id, lendLines));
      if (!saved) throw fail('not-found', { kind: 'profile', id });
      if (lendLines) services.governors.applyLending(id);
      else services.governors.for(id);
      return lineSettings(id);
    },

    'dialects.list': async () => [...BUILTIN_DIALECTS],
    'dialects.check': async ({ text }) => {
      const r = parseDialectText(text);
      if (!r.ok) throw fail('dialect-invalid', {}, r.issues);
      return r.dialect;
    },
    'dialects.reply': async ({ exchangeId }) => {
      const e = exchange(exchangeId);
      if (!['status', 'balance', 'receipt'].includes(e.operation)) throw invalid(['exchangeId', 'teach-operation']);
      const dialect = e.profile ? profiles.record(e.profile).dialect : SPEC_DIALECT;
      return replyTree(e, dialect);
    },
    'dialects.preview': async ({ profileId, dialect }) => previewDialect(capturedReplies(profileId), dialect, profiles.record(profileId).dialect),

    'templates.list': async () => {
      // A review that ended in the Sandbox approves the library's template (the Sandbox screen may be closed).
      if (services.sandbox) services.sandboxControl(SANDBOX_PROFILE_ID).syncLibrary();
      return store.templates.list().map(templateView);
    },
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
            if (!(error instanceof CalloutError)) throw error;
            errors.push({ index, error: toIpcError(error) });
          }
        });
      })();
      return { saved, errors };
    },
    'templates.remove': async ({ id }) => ({ removed: store.templates.remove(id) }),

    'messages.send': async ({ profileId, mobile, content, templateId }) => sendView(await calls.send(profileId, { mobile, content, templateId: templateId ?? null })),
    'messages.sendAgain': async ({ id }) => sendView(await calls.sendAgain(id)),
    'messages.recents': async (): Promise<RecentsView> => {
      const lastSends: RecentsView['lastSends'] = {};
      for (const { templateId, content, mobile, createdAt } of store.messages.latestPerTemplate()) {
        const t = store.templates.get(templateId);
        const values = t && matchTemplate(content, t.content);
        if (values) lastSends[templateId] = { values, mobile, at: createdAt };
      }
      return { mobiles: store.messages.recentMobiles(10), lastSends };
    },
    'messages.refreshStatus': ({ id }) => calls.refresh(id),
    'messages.queryStatus': async ({ profileId, smsid }): Promise<StatusView> => {
      const r = await calls.status(profileId, smsid);
      const ok = r.reply?.outcome === 'accepted';
      return {
        smsid: r.reply?.smsid ?? smsid,
        accepted: ok,
        providerCode: r.reply?.code ?? null,
        msg: r.reply?.msg ?? null,
        state: ok ? r.reply!.state : 'unknown',
        value: ok ? r.reply!.rawState : null,
        unmapped: ok ? r.reply!.unmapped : false,
        duration: ok ? r.reply!.duration : null,
        raw: r.reply?.raw ?? null,
        message: r.message,
        failure: r.failure,
      };
    },
    'messages.get': async ({ id }) => {
      const m = message(id);
      return { message: m, later: store.messages.laterSend(m) ?? null, events: store.messages.events(id), exchanges: store.exchanges.forMessage(id) };
    },
    'balance.query': async ({ profileId }): Promise<BalanceView> => {
      const r = await calls.balance(profileId);
      const threshold = profiles.record(profileId).lowBalanceThreshold;
      const units = r.reply?.outcome === 'accepted' ? r.reply.units : null;
      return {
        profileId,
        accepted: r.reply?.outcome === 'accepted',
        units,
        raw: r.reply?.raw ?? null,
        providerCode: r.reply?.code ?? null,
        failure: r.failure,
        low: units !== null && threshold !== null && units <= threshold,
        checkedAt: services.clock.now(),
      };
    },

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
    'capture.start': async (input) => services.capture.start(input),
    'capture.stop': async () => services.capture.stop(),
    'capture.status': async () => services.capture.status(),
    'exchanges.get': async ({ id }) => exchange(id),
    'exchanges.curl': async ({ id, target }) => ({ command: toCurl(exchange(id), { target }) }),
    'exchanges.copyCurlWithKey': async ({ id, target }) => {
      const e = exchange(id);
      if (!services.clipboard) throw fail('unavailable', { kind: 'clipboard' });
      if (!e.profile) throw fail('exchange-without-profile');
      const endpoint = await profiles.endpoint(e.profile);
      // The key goes from main straight to the clipboard; only "copied" goes back.
      services.clipboard.writeText(toCurl(e, { apiKey: endpoint.apiKey, signing: endpoint.signing ?? undefined, target, now: () => services.clock.date() }));
      return { copied: true as const };
    },
    'exchanges.exportHar': async ({ ids }) => {
      const list = ids.map(exchange);
      return { json: JSON.stringify(toHar(list, { name: 'Callout', version: services.version }), null, 2), entries: list.length };
    },

    'store.status': async () => ({ retention: store.retention.settings(), usage: store.retention.usage(), recovered: store.recovered }),
    'store.setRetention': async (settings) => store.retention.setSettings(settings),
    'store.applyRetention': async () => store.retention.apply(),
    'store.vacuum': async () => store.retention.vacuum(),

    'raw.send': async ({ request, assertions, ...scope }) => workbench.send(request, scope, assertions),
    'raw.preview': async ({ request, ...scope }) => workbench.preview(request, scope),
    'raw.import': async ({ profileId, text }) => workbench.importText(text, profileId),
    'raw.fromExchange': async ({ id }) => workbench.fromExchange(exchange(id)),
    'raw.code': async ({ request, target, ...scope }) => ({ code: await workbench.code(request, scope, target) }),
    'raw.copyCodeWithKey': async ({ request, target, confirm: _confirm, ...scope }) => {
      await workbench.copyCodeWithKey(request, scope, target);
      return { copied: true as const };
    },

    'collections.list': async () => store.workbench.listCollections(),
    'collections.get': async ({ id }) => store.workbench.collection(id),
    'collections.save': async (input) => store.workbench.saveCollection(input),
    'collections.remove': async ({ id }) => ({ removed: store.workbench.removeCollection(id) }),
    'collections.saveRequest': async (input) => store.workbench.saveRequest(input),
    'collections.removeRequest': async ({ id }) => ({ removed: store.workbench.removeRequest(id) }),
    'collections.import': async ({ text, name }) => workbench.importFile(text, name),
    'collections.export': async ({ id }) => workbench.exportFile(id),
    'collections.run': async (input) => workbench.run(input),
    'environments.list': async () => store.workbench.listEnvironments(),
    'environments.save': async (input) => {
      profiles.record(input.profileId);
      return store.workbench.saveEnvironment(input);
    },
    'environments.remove': async ({ id }) => ({ removed: store.workbench.removeEnvironment(id) }),
    'runs.list': async (input) => store.workbench.listRuns(input ?? {}),
    'runs.get': async ({ id }) => store.workbench.run(id),

    'bulk.open': async ({ templateId, file, mapping, profileId, requestId }) => {
      // The estimate is checked against the balance when a profile is named and its balance can be read.
      let balance: number | null = null;
      if (profileId) {
        const r = await calls.balance(profileId).catch(() => null);
        balance = r?.reply?.outcome === 'accepted' ? r.reply.units : null;
      }
      let last = 0;
      const onProgress = requestId
        ? (p: ReadProgress) => {
            const now = services.clock.now();
            if (now - last < 200) return;
            last = now;
            services.emit('importProgress', { requestId, ...p });
          }
        : undefined;
      return services.bulk.open({ name: file.name, bytes: Buffer.from(file.base64, 'base64') }, templateId, mapping, { balance, requestId, onProgress });
    },
    'bulk.cancelOpen': async ({ requestId }) => ({ cancelled: services.bulk.cancelOpen(requestId) }),
    'bulk.remap': async ({ importId, mapping, templateId }) => services.bulk.remap(importId, mapping, templateId),
    'bulk.issues': async ({ importId, ...q }) => services.bulk.issues(importId, q),
    'bulk.create': async ({ importId, ...input }) => services.bulk.createBatch(importId, input),
    'bulk.recentlyCalled': async ({ importId }) => services.bulk.recentlyCalled(importId),
    'bulk.discard': async ({ importId }) => ({ discarded: services.bulk.discard(importId) }),
    'bulk.list': async (input) => services.queue.list(input?.limit),
    'bulk.progress': async ({ batchId }) => services.queue.progress(batchId),
    'bulk.start': async ({ batchId }) => services.queue.start(batchId),
    'bulk.pause': async ({ batchId }) => services.queue.pause(batchId),
    'bulk.resume': async ({ batchId }) => services.queue.resume(batchId),
    'bulk.cancel': async ({ batchId }) => services.queue.cancel(batchId),
    'bulk.items': async ({ batchId, ...q }) => services.queue.items(batchId, q),
    'bulk.unknown': async ({ batchId }) => services.queue.unknownItems(batchId),
    'bulk.requeue': async ({ batchId, itemIds }) => ({ requeued: services.queue.requeue(batchId, itemIds, { confirm: true }) }),
    'bulk.skip': async ({ batchId, itemIds }) => ({ skipped: services.queue.skip(batchId, itemIds) }),
    'bulk.export': async ({ batchId, lang, utcOffsetMinutes, format }) => {
      const batch = services.queue.get(batchId);
      const r = await services.queue.exportResults(batchId, { lang, utcOffsetMinutes, format });
      const fileName = `callout-batch-${batch.id}.${format}`;
      return r.xlsx ? { fileName, format, rows: r.rows, base64: r.xlsx.toString('base64') } : { fileName, format, rows: r.rows, text: r.csv ?? '' };
    },
    'bulk.remove': async ({ batchId }) => ({ removed: services.queue.remove(batchId) }),

    'contacts.list': async () => services.contacts.list(),
    'contacts.resolve': async ({ query }) => services.contacts.resolve(query),
    'contacts.search': async ({ query, limit }) => services.contacts.search(query, limit),
    'contacts.save': async (input) => services.contacts.save(input),
    'contacts.remove': async ({ id }) => ({ removed: services.contacts.remove(id) }),
    'contacts.setFavourite': async ({ id, favourite }) => services.contacts.setFavourite(id, favourite),
    'contacts.groups': async () => services.contacts.listGroups(),
    'contacts.saveGroup': async (input) => services.contacts.saveGroup(input),
    'contacts.removeGroup': async ({ id }) => ({ removed: services.contacts.removeGroup(id) }),

    'dial.plan': async (req) => services.dialer.plan(req),
    'dial.start': async (req) => services.dialer.start(req),
    'dial.cancel': async ({ runId }) => ({ cancelled: services.dialer.cancel(runId) }),
    'dial.active': async () => services.dialer.active(),
    'dial.settings': async (input) => store.dialSettings.effective(input?.profileId ?? null),
    'dial.saveSettings': async (settings) => store.dialSettings.save(settings),

    'sandbox.state': async (input) => services.sandboxControl(input?.profileId ?? 'sandbox').view(),
    'sandbox.demoAccount': async () => profiles.sandboxDemoAccount(),
    'sandbox.registerTemplates': async ({ profileId, templateIds, approve }) => services.sandboxControl(profileId).register(templateIds, approve),
    'sandbox.approveTemplate': async ({ profileId, templateId }) => services.sandboxControl(profileId).approve(templateId),
    'sandbox.setBalance': async ({ profileId, ...balance }) => services.sandboxControl(profileId).setBalance(balance),
    'sandbox.setSettings': async ({ profileId, ...settings }) => services.sandboxControl(profileId).setSettings(settings),
    'sandbox.setFault': async ({ profileId, fault }) => services.sandboxControl(profileId).setFault(fault),
    'sandbox.clearFaults': async (input) => services.sandboxControl(input?.profileId ?? 'sandbox').clearFaults(),
    'sandbox.requests': async (input) => services.sandboxControl(input?.profileId ?? 'sandbox').requests(input?.limit ?? 100),

    'signature.compute': async (i) => {
      httpDate(i.date, 'date');
      return { ...signRequest({ apiId: i.apiId, apiKey: await keyFor(i.key), method: i.method, url: i.url, date: i.date, variant: i.variant }), keyNote: keyNote(i.key) };
    },
    'signature.diagnose': async (i) => {
      const expectedApiId = i.expectedApiId ?? ('profileId' in i.key ? profiles.record(i.key.profileId).apiId : undefined);
      const diagnosis = diagnoseSignature({
        method: i.method,
        url: i.url,
        host: i.host,
        date: i.date ?? undefined,
        authorization: i.authorization ?? undefined,
        apiKey: await keyFor(i.key),
        expectedApiId,
        variant: i.variant,
        now: httpDate(i.now, 'now'),
      });
      return { ...diagnosis, keyNote: keyNote(i.key) };
    },
    'signature.parseRequest': async ({ text, defaults }) => parseCapturedRequest(text, defaults),
    'signature.exportVector': async (i) => {
      if (!parseHttpDate(i.date)) throw invalid(['date', 'date-invalid']);
      const apiKey = await keyFor(i.key);
      const steps = signRequest({ apiId: i.apiId, apiKey, method: i.method, url: i.url, date: i.date, variant: i.variant });
      const source = 'profileId' in i.key ? ({ kind: 'profile', profile: profiles.record(i.key.profileId).name } as const) : ({ kind: 'adhoc' } as const);
      return { json: serializeVectorFile([exportVector(steps, { apiId: i.apiId, apiKey, method: i.method, url: i.url, date: i.date, name: i.name }, source)]) };
    },
    'signature.checkVectors': async ({ text }) => {
      const parsed = parseVectorFile(text);
      if (!parsed.ok) {
        // Every problem, each at its place in the file (`vectors[2].input.date`); its words are the catalog's vectors.problem.<code>.
        const issues = parsed.problems.map((p) => ({ path: p.where ?? 'text', message: p.code }));
        throw fail('vector-file-invalid', { kind: parsed.error, where: parsed.problems[0]?.where ?? null }, issues);
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
      return probeServerClock(baseUrl, { timeoutMs: record.totalTimeoutMs, clock: services.clock });
    },
    'signature.probeVariant': async ({ profileId }) => {
      const probe = await probeSignatureVariant(await profiles.endpoint(profileId), { clock: services.clock });
      for (const r of probe.results) if (r.exchange) store.exchanges.insert(r.exchange, { profile: profileId });
      return { accepted: probe.accepted, results: probe.results.map(({ exchange: _exchange, ...rest }) => rest) };
    },
    'signature.verify': async (i) => {
      const expectedApiId = i.expectedApiId ?? ('profileId' in i.key ? profiles.record(i.key.profileId).apiId : undefined);
      const r = verifyRequest({ method: i.method, url: i.url, host: i.host, date: i.date, authorization: i.authorization, apiKey: await keyFor(i.key), expectedApiId, now: httpDate(i.now, 'now'), variant: i.variant });
      return { valid: r.valid, reason: r.reason, keyId: r.keyId, expectedApiId: expectedApiId ?? null, skewSeconds: r.skewSeconds, variant: r.variant, keyNote: keyNote(i.key) };
    },
  };
}
