// Electronegativity (Doyensec's Electron security linter) over the TypeScript sources of
// main/, preload/ and renderer/, through its JS API. It parses .ts/.tsx itself (Babel
// with the typescript plugin, typescript-estree as fallback), so no build is needed.
//
// Gate: every HIGH-severity finding must be listed in JUSTIFIED below with a reason;
// entries that no longer match a finding fail too, so the table stays honest. Lower
// severities are printed for review. A deliberately insecure canary file is scanned in the
// same run to prove the scanner really parsed TypeScript and found something.
//
// Hermetic: Electronegativity fetches translations and Electron's release list over the
// network; `got` is replaced in the require cache with a stub that fails at once, and the
// release-list check (AvailableSecurityFixesGlobalCheck, which only judges the Electron
// version, not our code) is excluded.
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import Module, { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

type Severity = 'INFORMATIONAL' | 'LOW' | 'MEDIUM' | 'HIGH';

interface Justification {
  id: string;
  /** Path relative to the repository root, with forward slashes. */
  file: string;
  why: string;
}

/** HIGH findings we accept, each with its reason. Keep this short. */
const JUSTIFIED: readonly Justification[] = [
  // (none at present)
];

const SCANNED_DIRS = ['main', 'preload', 'renderer'] as const;
const CANARY = 'zz-electronegativity-canary/insecure-window.ts';

interface Issue {
  id: string;
  file: string;
  location?: { line: number; column: number };
  sample?: string;
  description?: string;
  manualReview?: boolean;
  severity: { name: Severity; value: number };
  confidence: { name: string; value: number };
}

interface RunResult {
  globalChecks: number;
  atomicChecks: number;
  errors: { file: string; message: string; tolerable: boolean }[];
  issues: Issue[];
}

type Run = (options: Record<string, unknown>, forCli?: boolean) => Promise<RunResult>;

const requireHere = createRequire(import.meta.url);
const electronegativityEntry = requireHere.resolve('@doyensec/electronegativity');

/** Makes Electronegativity's `got` fail immediately instead of reaching the network. */
function stubNetwork(): void {
  const gotPath = createRequire(electronegativityEntry).resolve('got');
  const offline = (): Promise<never> => Promise.reject(new Error('network disabled in tests'));
  const stub = Object.assign(offline, { head: offline, get: offline });
  const cached = new Module(gotPath);
  cached.filename = gotPath;
  cached.loaded = true;
  cached.exports = stub;
  requireHere.cache[gotPath] = cached;
}

const CANARY_SOURCE = `import { BrowserWindow } from 'electron';
interface Options { url: string }
export function insecure(options: Options): BrowserWindow {
  const win = new BrowserWindow({ webPreferences: { contextIsolation: false, sandbox: false, nodeIntegration: true } });
  void win.loadURL(options.url);
  return win;
}
`;

let workDir: string;
let result: RunResult;
let sarifPath: string;

function normalise(file: string): string {
  return file.split('\\').join('/');
}

function key(issue: { id: string; file: string }): string {
  return `${issue.id} @ ${issue.file}`;
}

beforeAll(async () => {
  workDir = mkdtempSync(join(tmpdir(), 'callout-electronegativity-'));
  const input = join(workDir, 'input');
  for (const dir of SCANNED_DIRS) {
    if (existsSync(dir)) cpSync(dir, join(input, dir), { recursive: true, filter: (src) => !src.includes('node_modules') });
  }
  mkdirSync(join(input, 'zz-electronegativity-canary'), { recursive: true });
  writeFileSync(join(input, CANARY), CANARY_SOURCE);
  sarifPath = join(workDir, 'electronegativity.sarif');

  stubNetwork();
  const run = requireHere(electronegativityEntry) as Run;
  const electronVersion = (requireHere('electron/package.json') as { version: string }).version;

  const lang = process.env.LANG;
  process.env.LANG = 'en-US'; // its own locale file, not a download
  const log = console.log;
  console.log = () => undefined; // it reports its offline fallbacks on stdout
  try {
    result = await run(
      {
        input,
        output: sarifPath,
        isSarif: true,
        customScan: [],
        excludeFromScan: ['AvailableSecurityFixesGlobalCheck'],
        severitySet: 'informational',
        confidenceSet: 'tentative',
        isRelative: true,
        isVerbose: false,
        electronUpgrade: undefined,
        electronVersionOverride: electronVersion,
        parserPlugins: [],
      },
      false,
    );
  } finally {
    console.log = log;
    if (lang === undefined) delete process.env.LANG;
    else process.env.LANG = lang;
  }
  for (const issue of result.issues) issue.file = normalise(issue.file);
}, 60_000);

afterAll(() => {
  if (workDir) rmSync(workDir, { recursive: true, force: true });
});

describe('Electronegativity', () => {
  it('loaded its checks and parsed every file', () => {
    expect(result.atomicChecks).toBeGreaterThan(20);
    expect(result.globalChecks).toBeGreaterThan(3);
    expect(result.errors.filter((error) => !error.tolerable)).toEqual([]);
  });

  it('finds the canary (so a clean result means something)', () => {
    const canary = result.issues.filter((issue) => issue.file === CANARY);
    expect(canary.map((issue) => issue.id)).toContain('CONTEXT_ISOLATION_JS_CHECK');
    expect(canary.some((issue) => issue.severity.name === 'HIGH')).toBe(true);
  });

  it('has no unjustified HIGH-severity finding in main/, preload/ or renderer/', () => {
    const ours = result.issues.filter((issue) => issue.file !== CANARY);
    const review = ours.filter((issue) => issue.severity.name !== 'HIGH');
    if (review.length > 0) {
      console.info(
        `Electronegativity, below HIGH (review):\n${review
          .map((issue) => `  ${issue.severity.name} ${issue.id} ${issue.file}:${issue.location?.line ?? '?'}${issue.manualReview ? ' (manual review)' : ''}`)
          .join('\n')}`,
      );
    }
    const justified = new Set(JUSTIFIED.map(key));
    const unjustified = ours
      .filter((issue) => issue.severity.name === 'HIGH' && !justified.has(key(issue)))
      .map((issue) => `${key(issue)}:${issue.location?.line ?? '?'} ${issue.sample ?? ''}`);
    expect(unjustified).toEqual([]);
  });

  it('has no stale justification', () => {
    const found = new Set(result.issues.map(key));
    expect(JUSTIFIED.filter((entry) => !found.has(key(entry)))).toEqual([]);
    for (const entry of JUSTIFIED) expect(entry.why.trim()).not.toBe('');
  });

  it('wrote a SARIF report', async () => {
    // It writes the file with a callback and does not wait for it.
    type Sarif = { version: string; runs: { results: unknown[] }[] };
    let sarif: Sarif | undefined;
    for (let i = 0; i < 100 && sarif === undefined; i++) {
      try {
        sarif = JSON.parse(readFileSync(sarifPath, 'utf8')) as Sarif;
      } catch {
        // Real time: polls for a file the scanner writes on its own (file I/O, not time); bounded by the count.
        await new Promise((done) => setTimeout(done, 50));
      }
    }
    if (!sarif) throw new Error(`no complete SARIF report at ${sarifPath}`);
    expect(sarif.version).toBe('2.1.0');
    expect(sarif.runs[0]?.results).toHaveLength(result.issues.length);
  });
});
