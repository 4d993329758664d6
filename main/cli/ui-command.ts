// `callout ui`: the console in a browser. The same services as the desktop app (createServices: the
// keychain, the embedded sandbox, following open calls) and the same handler table, served by
// main/ui/server.ts on 127.0.0.1 until Ctrl-C. It prints a link with a one-time token and, on a
// desktop, opens the browser on another one. Plain Node.
import { existsSync } from 'node:fs';
import { isIP } from 'node:net';
import { join, resolve } from 'node:path';
import { ENTRY_DOCUMENT } from '../renderer-files';
import { createServices, type Services } from '../services';
import { dataDirectory } from '../store';
import { isLoopback, isWildcard } from '../ui/access';
import { startConsoleServer, type ConsoleServer } from '../ui/server';
import { LINK_LIFETIME_MS, SESSION_IDLE_MS } from '../ui/access';
import { usage, type CliIo } from './io';
import { reportingUpgrade, upgradeReport } from './upgrade-report';
import { systemClock } from '../clock';
import type { CliWords } from './text';

export interface UiCommandOptions {
  port?: number;
  host?: string;
  /** commander's --no-open: false when given. */
  open: boolean;
}

export interface UiCommandDeps {
  /** Resolves when the console should stop; default SIGINT or SIGTERM. */
  until?: Promise<void>;
  /** Opens a URL in the user's browser; default the `open` package. */
  openUrl?: (url: string) => Promise<void>;
  /** The built renderer; default found beside the built CLI (out/renderer). */
  rendererDir?: string;
  /** Test seam: defaults to the real services. */
  create?: typeof createServices;
  /** Test seam: defaults to the real server (tests of --host cannot bind another address). */
  start?: typeof startConsoleServer;
  /** Told once the console is up (tests). */
  started?: (console: { server: ConsoleServer; services: Services }) => void;
}

/** out/renderer, looked for beside the running code: out/main/cli.js, a chunk in out/main/chunks, or main/cli in a checkout. */
export function findRendererDir(from: string = __dirname): string | null {
  for (const candidate of [join(from, '..', 'renderer'), join(from, '..', '..', 'renderer'), join(from, '..', '..', 'out', 'renderer')]) {
    if (existsSync(join(candidate, ENTRY_DOCUMENT))) return resolve(candidate);
  }
  return null;
}

/** Whether a browser can be opened here: a desktop session, not a shell reached over SSH. */
export function canOpenBrowser(env: NodeJS.ProcessEnv, platform: NodeJS.Platform = process.platform): boolean {
  if (env.SSH_CONNECTION || env.SSH_TTY) return false;
  if (platform === 'darwin' || platform === 'win32') return true;
  return Boolean(env.DISPLAY || env.WAYLAND_DISPLAY);
}

/** The address to listen on: 127.0.0.1 unless --host names one address of this machine. */
export function listenAddress(host: string | undefined): string {
  if (host === undefined) return '127.0.0.1';
  const value = host.trim().replace(/^\[(.*)\]$/, '$1');
  if (value === 'localhost') return '127.0.0.1';
  if (isWildcard(value)) throw usage('uiWildcard', { value: host });
  if (isIP(value) === 0) throw usage('uiHost', { value: host });
  return value;
}

async function openWithSystem(url: string): Promise<void> {
  const { default: open } = await import('open');
  await open(url);
}

const signals = () =>
  new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });

export async function runUiCommand(opts: UiCommandOptions, io: CliIo, json: boolean, words: CliWords, deps: UiCommandDeps = {}): Promise<void> {
  const { t } = words;
  const address = listenAddress(opts.host);
  const rendererDir = deps.rendererDir ?? findRendererDir();
  if (!rendererDir || !existsSync(join(rendererDir, ENTRY_DOCUMENT))) throw usage('uiNotBuilt');
  const home = dataDirectory(io.env);

  const upgrade = upgradeReport({ stderr: io.stderr, live: io.stderrIsTTY && !json, lang: words.lang, clock: io.clock ?? systemClock });
  const services = await reportingUpgrade(upgrade, () =>
    (deps.create ?? createServices)({
      home,
      onUpgrade: (p) => upgrade.progress(p),
      // Like the app, the browser console runs escalations.
      paging: { escalate: true },
      log: (error) => io.stderr(`callout ui: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`),
    }),
  );
  let server: ConsoleServer;
  try {
    server = await (deps.start ?? startConsoleServer)({
      services,
      clock: services.clock,
      rendererDir,
      host: address,
      port: opts.port ?? 0,
      log: (error) => io.stderr(`callout ui: ${error instanceof Error ? error.message : String(error)}\n`),
    });
  } catch (error) {
    await services.close();
    const detail = (error as NodeJS.ErrnoException).code ?? (error instanceof Error ? error.message : String(error));
    throw usage('uiListen', { address, port: opts.port ?? 0, detail });
  }

  try {
    if (!isLoopback(address)) io.stderr(`callout: ${t('cli:ui.remote', { address })}\n`);
    const printed = server.link();
    const browser = opts.open && canOpenBrowser(io.env) ? (deps.openUrl ?? openWithSystem) : null;
    if (json) {
      io.stdout(`${JSON.stringify({ url: printed, origin: server.origin, address: server.address, port: server.port, dataDirectory: home })}\n`);
    } else {
      io.stdout(
        [
          t('cli:ui.listening', { link: printed }),
          t('cli:ui.once', { minutes: LINK_LIFETIME_MS / 60_000, hours: SESSION_IDLE_MS / 3_600_000 }),
          t('cli:ui.data', { dir: home }),
          '',
        ].join('\n'),
      );
    }
    if (browser) {
      // The browser gets a link of its own, so the printed one still works elsewhere.
      await browser(server.link()).then(
        () => json || io.stdout(`${t('cli:ui.opened', { link: server.link() })}\n`),
        (error: unknown) => io.stderr(`callout: ${t('cli:ui.openFailed', { detail: error instanceof Error ? error.message : String(error) })}\n`),
      );
    }
    // --json prints one value: new links on Enter are for people.
    const stopLines = json ? undefined : io.onLine?.(() => io.stdout(`${t('cli:ui.newLink', { link: server.link() })}\n`));
    if (!json) io.stdout(`${t(stopLines ? 'cli:ui.enter' : 'cli:ui.stop')}\n`);
    deps.started?.({ server, services });
    try {
      await (deps.until ?? signals());
    } finally {
      stopLines?.();
    }
  } finally {
    await server.close();
    await services.close();
  }
  if (!json) io.stdout(`${t('cli:ui.stopped')}\n`);
}
