// The application menu. Every item is a role, so Electron supplies (and localises) the
// label, the accelerator and the behaviour. Reload and DevTools exist only in development.
import type { Menu, MenuItemConstructorOptions } from 'electron';

export interface AppMenuOptions {
  platform: NodeJS.Platform;
  /** Development build (not packaged): adds reload, force reload and the DevTools toggle. */
  isDev: boolean;
}

export function buildMenuTemplate({ platform, isDev }: AppMenuOptions): MenuItemConstructorOptions[] {
  const isMac = platform === 'darwin';
  const separator: MenuItemConstructorOptions = { type: 'separator' };

  const template: MenuItemConstructorOptions[] = [];

  if (isMac) {
    template.push({
      role: 'appMenu',
      submenu: [
        { role: 'about' },
        separator,
        { role: 'services' },
        separator,
        { role: 'hide' },
        { role: 'hideOthers' },
        { role: 'unhide' },
        separator,
        { role: 'quit' },
      ],
    });
  }

  template.push({ role: 'fileMenu', submenu: [isMac ? { role: 'close' } : { role: 'quit' }] });

  template.push({
    role: 'editMenu',
    submenu: [
      { role: 'undo' },
      { role: 'redo' },
      separator,
      { role: 'cut' },
      { role: 'copy' },
      { role: 'paste' },
      ...(isMac ? [{ role: 'pasteAndMatchStyle' } as const] : []),
      { role: 'delete' },
      separator,
      { role: 'selectAll' },
    ],
  });

  template.push({
    role: 'viewMenu',
    submenu: [
      ...(isDev ? [{ role: 'reload' } as const, { role: 'forceReload' } as const, { role: 'toggleDevTools' } as const, separator] : []),
      { role: 'resetZoom' },
      { role: 'zoomIn' },
      { role: 'zoomOut' },
      separator,
      { role: 'togglefullscreen' },
    ],
  });

  template.push({
    role: 'windowMenu',
    submenu: isMac ? [{ role: 'minimize' }, { role: 'zoom' }, separator, { role: 'front' }] : [{ role: 'minimize' }, { role: 'close' }],
  });

  // On macOS "About" lives in the app menu; elsewhere it goes under Help.
  template.push({ role: 'help', submenu: isMac ? [] : [{ role: 'about' }] });

  return template;
}

export type MenuModuleLike = Pick<typeof Menu, 'buildFromTemplate' | 'setApplicationMenu'>;

export function installAppMenu(menu: MenuModuleLike, options: AppMenuOptions): void {
  menu.setApplicationMenu(menu.buildFromTemplate(buildMenuTemplate(options)));
}
