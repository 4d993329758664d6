// The desktop app's upgrade window: shown while a store written by an earlier version is upgraded
// (store/upgrade.ts), before the main window opens; its texts are main's (upgrade-text.ts), in the
// OS's language. A small page of its own (no preload, no script of the console's): main calls its
// one function with each step's texts. Closing it quits the app; the upgrade goes on at next start.
import type { BrowserWindow, BrowserWindowConstructorOptions } from 'electron';
import type { Lang } from '../common/domain/i18n-text';
import type { UpgradeProgress } from './store';
import { upgradeTexts, type UpgradeTexts } from './upgrade-text';

/** The page: its texts set by `showUpgrade(texts)` (textContent only), a bar for the step's share. */
export function upgradePage(lang: Lang): string {
  return `<!doctype html>
<html lang="${lang === 'zh-CN' ? 'zh-CN' : 'en'}">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'">
<title>Callout</title>
<style>
  html, body { margin: 0; height: 100%; background: #fff; color: rgba(0,0,0,0.88);
    font: 14px/1.5 system-ui, -apple-system, "Segoe UI", "PingFang SC", "Microsoft YaHei", "Noto Sans CJK SC", sans-serif; }
  main { box-sizing: border-box; height: 100%; padding: 20px 24px; display: flex; flex-direction: column; gap: 8px; }
  h1 { font-size: 16px; font-weight: 600; margin: 0; }
  .muted { color: rgba(0,0,0,0.55); font-size: 12px; }
  .row { display: flex; justify-content: space-between; gap: 12px; align-items: baseline; }
  #step { overflow-wrap: anywhere; }
  #percent { font-variant-numeric: tabular-nums; white-space: nowrap; }
  .track { height: 8px; border-radius: 4px; background: rgba(0,0,0,0.06); overflow: hidden; position: relative; }
  .fill { height: 100%; width: 0; border-radius: 4px; background: #1677ff; transition: width 0.2s; }
  .track.unknown .fill { width: 30%; position: absolute; animation: slide 1.4s ease-in-out infinite; }
  @keyframes slide { from { left: -30%; } to { left: 100%; } }
  @media (prefers-reduced-motion: reduce) {
    .fill { transition: none; }
    .track.unknown .fill { animation: none; left: 0; width: 100%; opacity: 0.35; }
  }
  #note { margin-top: auto; }
</style>
</head>
<body>
<main>
  <h1 id="title"></h1>
  <div class="muted" id="versions"></div>
  <div class="row"><span id="step"></span><span id="percent"></span></div>
  <div class="track unknown" id="track" role="progressbar" aria-valuemin="0" aria-valuemax="100"><div class="fill" id="fill"></div></div>
  <div class="muted" id="note"></div>
</main>
<script>
  window.showUpgrade = function (t) {
    for (const id of ['title', 'versions', 'step', 'percent', 'note']) document.getElementById(id).textContent = t[id];
    document.title = t.title;
    const track = document.getElementById('track');
    const fill = document.getElementById('fill');
    track.setAttribute('aria-label', t.step);
    if (t.share === null) {
      track.classList.add('unknown');
      track.removeAttribute('aria-valuenow');
      fill.style.width = '';
    } else {
      track.classList.remove('unknown');
      track.setAttribute('aria-valuenow', String(Math.round(t.share * 100)));
      fill.style.width = (Math.max(0, Math.min(1, t.share)) * 100).toFixed(1) + '%';
    }
  };
</script>
</body>
</html>`;
}

export interface UpgradeWindow {
  show(p: UpgradeProgress): void;
  /** Brings it forward (a second launch, the dock icon). */
  focus(): void;
  /** Closes it (the console's window is open). */
  close(): void;
}

/** Opens the upgrade window at its first step; each later step updates it. */
export function openUpgradeWindow(
  BrowserWindow: new (options: BrowserWindowConstructorOptions) => BrowserWindow,
  lang: Lang,
  log: (message: string) => void,
  /** The person closed it before the upgrade ended: the app quits (on every platform, macOS too). */
  closedByUser: () => void,
): UpgradeWindow {
  const win = new BrowserWindow({
    width: 480,
    height: 220,
    resizable: false,
    maximizable: false,
    fullscreenable: false,
    title: 'Callout',
    show: false,
    webPreferences: { contextIsolation: true, sandbox: true, nodeIntegration: false, webSecurity: true, spellcheck: false },
  });
  let latest: UpgradeTexts | null = null;
  let loaded = false;
  const paint = () => {
    if (!loaded || !latest || win.isDestroyed()) return;
    win.webContents.executeJavaScript(`window.showUpgrade(${JSON.stringify(latest)})`).catch((error: unknown) => log(`the upgrade window: ${String(error)}`));
  };
  let closing = false;
  win.on('closed', () => {
    if (!closing) closedByUser();
  });
  win.once('ready-to-show', () => {
    loaded = true;
    paint();
    win.show();
  });
  win
    .loadURL(`data:text/html;charset=utf-8,${encodeURIComponent(upgradePage(lang))}`)
    .catch((error: unknown) => log(`the upgrade window failed to load: ${String(error)}`));
  return {
    show(p) {
      latest = upgradeTexts(p, lang);
      paint();
    },
    focus() {
      if (win.isDestroyed()) return;
      if (win.isMinimized()) win.restore();
      win.show();
      win.focus();
    },
    close() {
      closing = true;
      if (!win.isDestroyed()) win.close();
    },
  };
}
