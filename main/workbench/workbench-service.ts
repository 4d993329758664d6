// The tester's workbench in main: the raw client (build, send, preview, code), requests from a
// paste or an exchange, collections and environments, and runs. Built once in services.ts; the
// handler table adapts its channels to it.
import type {
  Assertion,
  CodeTarget,
  CollectionView,
  EnvironmentView,
  RawImport,
  RawPreview,
  RawRequest,
  RawResult,
  RunResultView,
  RunView,
  SavedRequestView,
  Variable,
} from '../../common/contract/workbench';
import { variablesIn } from '../../common/domain/variables';
import type { ExchangeRecord, Header } from '../../common/records';
import type { ProfileService } from '../profiles/profile-service';
import { CalloutError, fail, toIpcError } from '../errors';
import { toCurl } from '../export/curl';
import type { ExchangeRepository, WorkbenchRepository } from '../store';
import type { ProviderEndpoint } from '../voice/client';
import { signatureRejected, transportFailure } from '../voice/client';
import { Redactor } from '../voice/redaction';
import { parseBody, replyCode } from '../voice/replies';
import { httpExchange } from '../voice/transport';
import { capturedValues, checkAssertions, outcomeOf } from './assertions';
import { exportCollection, importCollection } from './collection-file';
import { buildRawRequest, type BuiltRequest } from './raw-request';
import { draftFromCapture, draftFromText } from './request-draft';
import { systemClock, type Clock } from '../clock';

export interface RequestScope {
  profileId: string;
  environmentId?: number | null;
  collectionId?: number | null;
  /** Values given now (the editor's, a run's captures): they win over the environment's and the collection's. */
  variables?: Variable[];
}

export interface WorkbenchDeps {
  /** Collections, saved requests, environments and runs. */
  saved: WorkbenchRepository;
  /** Where a raw send's exchange is kept. */
  exchanges: ExchangeRepository;
  profiles: ProfileService;
  clipboard: () => { writeText(text: string): void } | null;
  onRunProgress: (p: { runId: number; done: number; total: number; result: RunResultView | null }) => void;
  /** The Date of signed requests, exchanges' times. Default systemClock. */
  clock?: Clock;
}

const toMap = (list: readonly Variable[] | undefined) => Object.fromEntries((list ?? []).map((v) => [v.name, v.value]));

export class WorkbenchService {
  constructor(private readonly deps: WorkbenchDeps) {}

  private get clock(): Clock {
    return this.deps.clock ?? systemClock;
  }

  private get repo() {
    return this.deps.saved;
  }

  /** Collections, saved requests, environments and runs as stored (the handler table reads them). */
  get saved(): WorkbenchRepository {
    return this.deps.saved;
  }

  /** Variables in force for a request: the collection's, then the environment's, then those given now. */
  private variables(scope: Omit<RequestScope, 'profileId'>): Record<string, string> {
    const collection = scope.collectionId ? this.repo.collection(scope.collectionId).variables : [];
    const environment = scope.environmentId ? this.repo.environment(scope.environmentId).variables : [];
    return { ...toMap(collection), ...toMap(environment), ...toMap(scope.variables) };
  }

  private async built(request: RawRequest, scope: RequestScope): Promise<{ built: BuiltRequest; missing: string[]; endpoint: ProviderEndpoint }> {
    const endpoint = await this.deps.profiles.endpoint(scope.profileId);
    const { request: built, missing } = buildRawRequest(request, { endpoint, variables: this.variables(scope), now: this.clock.date() });
    return { built, missing, endpoint };
  }

  /** Sends once, never again by itself (a raw request may place a call); the exchange is stored redacted. */
  async send(request: RawRequest, scope: RequestScope, assertions: readonly Assertion[] = [], variables: Record<string, string> = {}): Promise<RawResult> {
    const { built, missing, endpoint } = await this.built(request, scope);
    // An expected value naming a variable without a value is a mistake of the test: nothing is sent.
    const known: Record<string, string> = { ...this.variables(scope), ...variables, account: endpoint.apiId };
    for (const a of assertions) {
      if (a.kind !== 'json-equals') continue;
      for (const name of variablesIn(a.equals)) if (!(name in known) && !missing.includes(name)) missing.push(name);
    }
    if (missing.length) throw fail('unresolved-variables', { names: missing.join(', ') });
    const redactor = new Redactor([endpoint.apiKey]);
    const { exchange, delivery } = await httpExchange(
      {
        operation: 'raw',
        method: built.method,
        url: built.url,
        headers: built.headers,
        body: built.body,
        omit: built.omit,
        connectTimeoutMs: endpoint.connectTimeoutMs,
        totalTimeoutMs: endpoint.totalTimeoutMs,
        clock: this.clock,
      },
      redactor,
    );
    const id = this.deps.exchanges.insert(exchange, { profile: scope.profileId });
    const stored = this.deps.exchanges.get(id)!;
    const reply = parseBody(stored.responseBody);
    const failure = stored.error ? transportFailure(stored.error, delivery) : signatureRejected(stored.status, reply);
    const providerCode = replyCode(reply);
    const results = checkAssertions(assertions, { status: stored.status, providerCode, reply }, known);
    return { exchange: stored, reply, providerCode, failure, assertions: results, outcome: outcomeOf(stored.status, results) };
  }

  async preview(request: RawRequest, scope: RequestScope): Promise<RawPreview> {
    const { built, missing, endpoint } = await this.built(request, scope);
    const redactor = new Redactor([endpoint.apiKey]);
    const contentType = built.headers.find(([n]) => n.toLowerCase() === 'content-type')?.[1];
    return {
      method: built.method,
      url: redactor.text(built.url),
      headers: redactor.headers(built.headers),
      body: redactor.body(built.body, contentType),
      unresolved: missing,
    };
  }

  /** The request as code; with the key only to the clipboard (main writes it; the key never leaves main otherwise). */
  async code(request: RawRequest, scope: RequestScope, target: CodeTarget, withKey = false): Promise<string> {
    const { built, missing, endpoint } = await this.built(request, scope);
    if (missing.length) throw fail('unresolved-variables', { names: missing.join(', ') });
    const redacted = new Redactor([endpoint.apiKey]);
    const contentType = built.headers.find(([n]) => n.toLowerCase() === 'content-type')?.[1];
    const request_ = {
      method: built.method,
      url: redacted.text(built.url),
      requestHeaders: redacted.headers(built.headers),
      requestBody: redacted.body(built.body, contentType),
    };
    return toCurl(request_, withKey ? { apiKey: endpoint.apiKey, signing: built.signing ?? undefined, target, now: () => this.clock.date() } : { target });
  }

  async copyCodeWithKey(request: RawRequest, scope: RequestScope, target: CodeTarget): Promise<void> {
    const clipboard = this.deps.clipboard();
    if (!clipboard) throw fail('unavailable', { kind: 'clipboard' });
    clipboard.writeText(await this.code(request, scope, target, true));
  }

  async importText(text: string, profileId: string): Promise<RawImport> {
    const p = this.deps.profiles.record(profileId);
    const { baseUrl } = await this.deps.profiles.view(p);
    return draftFromText(text, { baseUrl, apiId: p.apiId, signing: p.signing === 'off' ? null : p.signing });
  }

  async fromExchange(e: ExchangeRecord): Promise<{ request: RawRequest; profileId: string | null }> {
    // A profile that no longer exists (or lived only in a CLI run): the request keeps its own origin's path.
    let record: ReturnType<ProfileService['record']> | null = null;
    try {
      record = e.profile ? this.deps.profiles.record(e.profile) : null;
    } catch (error) {
      if (!(error instanceof CalloutError && error.code === 'not-found')) throw error;
    }
    const baseUrl = record ? (await this.deps.profiles.view(record)).baseUrl : new URL(e.url).origin;
    const headers: Header[] = e.requestHeaders;
    const { request } = draftFromCapture(
      { method: e.method, url: e.url, headers, body: e.requestBody },
      { baseUrl, apiId: record?.apiId ?? '', signing: record && record.signing !== 'off' ? record.signing : null },
    );
    return { request, profileId: record?.id ?? null };
  }

  // ——— collections and environments ———

  /** An environment belongs to a profile that exists. */
  saveEnvironment(input: Parameters<WorkbenchRepository['saveEnvironment']>[0]): EnvironmentView {
    this.deps.profiles.record(input.profileId);
    return this.repo.saveEnvironment(input);
  }

  importFile(text: string, name?: string): { collection: CollectionView; warnings: ReturnType<typeof importCollection>['warnings'] } {
    const file = importCollection(text);
    const collection = this.repo.addCollection(
      { name: name ?? file.name, renameIfTaken: name === undefined, description: file.description, variables: file.variables },
      file.requests,
    );
    return { collection, warnings: file.warnings };
  }

  exportFile(id: number) {
    return exportCollection(this.repo.collection(id));
  }

  // ——— runs ———

  /**
   * Runs requests of a collection in order, each once (a request that may have placed a call is
   * never sent again by itself). Values captured from a reply are variables for the requests after
   * it. Each result is kept with the run, and pushed as progress.
   */
  async run(input: {
    id: number;
    requestIds?: number[];
    environmentId?: number | null;
    profileId?: string;
    stopOnFailure?: boolean;
    variables?: Variable[];
  }): Promise<RunView> {
    const collection = this.repo.collection(input.id);
    const environment = input.environmentId ? this.repo.environment(input.environmentId) : null;
    const profileId = input.profileId ?? environment?.profileId;
    if (!profileId) throw fail('not-found', { kind: 'profile' });
    this.deps.profiles.record(profileId);
    let requests: SavedRequestView[] = collection.requests;
    if (input.requestIds) {
      requests = input.requestIds.map((id) => {
        const r = collection.requests.find((x) => x.id === id);
        if (!r) throw fail('not-found', { kind: 'request', id });
        return r;
      });
    }
    const runId = this.repo.startRun({
      collectionId: collection.id,
      collectionName: collection.name,
      environmentName: environment?.name ?? null,
      profile: profileId,
      total: requests.length,
    });
    const captured: Record<string, string> = toMap(input.variables);
    let done = 0;
    this.deps.onRunProgress({ runId, done, total: requests.length, result: null });
    for (const [position, saved] of requests.entries()) {
      const started = performance.now();
      let result: RunResultView;
      try {
        const scope: RequestScope = {
          profileId,
          collectionId: collection.id,
          environmentId: environment?.id ?? null,
          variables: Object.entries(captured).map(([name, value]) => ({ name, value })),
        };
        const r = await this.send(saved.request, scope, saved.assertions);
        Object.assign(captured, capturedValues(saved.captures, r.reply));
        result = {
          position,
          requestId: saved.id,
          name: saved.name,
          exchangeId: r.exchange.id,
          outcome: r.outcome,
          status: r.exchange.status,
          providerCode: r.providerCode,
          assertions: r.assertions,
          problem: null,
          failure: r.failure,
          ms: r.exchange.timings.totalMs,
        };
      } catch (error) {
        if (!(error instanceof CalloutError)) throw error;
        // Not sent: a variable without a value, a profile without a key...
        result = {
          position,
          requestId: saved.id,
          name: saved.name,
          exchangeId: null,
          outcome: 'error',
          status: null,
          providerCode: null,
          assertions: [],
          problem: toIpcError(error),
          failure: null,
          ms: Math.round(performance.now() - started),
        };
      }
      this.repo.addResult(runId, result);
      done++;
      this.deps.onRunProgress({ runId, done, total: requests.length, result });
      if (input.stopOnFailure && result.outcome !== 'passed') break;
    }
    return this.repo.finishRun(runId);
  }
}
