import type { MenuItemConstructorOptions } from 'electron';
import { describe, expect, it } from 'vitest';
import { buildMenuTemplate, installAppMenu } from '../../../main/app-menu';
import { createFakeElectron } from '../../fixtures/fake-electron';

function roles(items: MenuItemConstructorOptions[]): string[] {
  const out: string[] = [];
  for (const item of items) {
    if (item.role) out.push(item.role);
    if (Array.isArray(item.submenu)) out.push(...roles(item.submenu));
  }
  return out;
}

function submenuRoles(template: MenuItemConstructorOptions[], role: string): string[] {
  const menu = template.find((item) => item.role === role);
  expect(menu, `${role} menu`).toBeDefined();
  return Array.isArray(menu?.submenu) ? roles(menu.submenu) : [];
}

function labels(items: MenuItemConstructorOptions[]): string[] {
  const out: string[] = [];
  for (const item of items) {
    if (item.label !== undefined) out.push(item.label);
    if (Array.isArray(item.submenu)) out.push(...labels(item.submenu));
  }
  return out;
}

describe('buildMenuTemplate', () => {
  for (const platform of ['linux', 'win32', 'darwin'] as const) {
    for (const isDev of [false, true]) {
      it(`${platform}${isDev ? ' (dev)' : ''}: Edit has undo/redo/cut/copy/paste/selectAll; all items are roles`, () => {
        const template = buildMenuTemplate({ platform, isDev });
        expect(submenuRoles(template, 'editMenu')).toEqual(expect.arrayContaining(['undo', 'redo', 'cut', 'copy', 'paste', 'selectAll']));
        expect(labels(template)).toEqual([]); // roles only, so Electron localises every label
        for (const item of template) expect(item.role ?? item.type).toBeDefined();
        expect(template.map((item) => item.role)).toEqual(expect.arrayContaining(['fileMenu', 'editMenu', 'viewMenu', 'windowMenu', 'help']));
        expect(submenuRoles(template, 'viewMenu')).toEqual(expect.arrayContaining(['resetZoom', 'zoomIn', 'zoomOut']));
      });
    }
  }

  it('has the app menu on macOS only, and File → Quit elsewhere', () => {
    const mac = buildMenuTemplate({ platform: 'darwin', isDev: false });
    expect(mac[0]?.role).toBe('appMenu');
    expect(submenuRoles(mac, 'appMenu')).toContain('quit');
    expect(submenuRoles(mac, 'fileMenu')).toEqual(['close']);

    const linux = buildMenuTemplate({ platform: 'linux', isDev: false });
    expect(linux.map((item) => item.role)).not.toContain('appMenu');
    expect(submenuRoles(linux, 'fileMenu')).toEqual(['quit']);
    expect(submenuRoles(linux, 'help')).toContain('about');
  });

  it('offers reload and DevTools only in development', () => {
    for (const platform of ['linux', 'win32', 'darwin'] as const) {
      const prod = roles(buildMenuTemplate({ platform, isDev: false }));
      expect(prod).not.toContain('reload');
      expect(prod).not.toContain('forceReload');
      expect(prod).not.toContain('toggleDevTools');
      const dev = roles(buildMenuTemplate({ platform, isDev: true }));
      expect(dev).toEqual(expect.arrayContaining(['reload', 'forceReload', 'toggleDevTools']));
    }
  });
});

describe('installAppMenu', () => {
  it('sets the application menu built from the template', () => {
    const fake = createFakeElectron();
    installAppMenu(fake.modules.Menu, { platform: 'linux', isDev: false });
    expect(fake.Menu.applicationMenu?.template).toEqual(buildMenuTemplate({ platform: 'linux', isDev: false }));
  });
});
