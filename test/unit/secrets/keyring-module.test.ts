// How Callout drives @napi-rs/keyring on each platform, with a recording stand-in for the library:
// entries pinned to the Secret Service on Linux (never the kernel keyring, which forgets keys at
// reboot), and keytar's Windows credentials read by keytar's name for them, as UTF-8.
import { describe, expect, it } from 'vitest';
import { keyringModule, keytarWindowsTarget, windowsKeytarLayout } from '../../../main/secrets';

type Made = { how: 'new' | 'withTarget'; args: unknown[] };

function library(stored: Map<string, Uint8Array | string> = new Map()) {
  const made: Made[] = [];
  const entry = (name: string) => ({
    getPassword: async () => {
      const value = stored.get(name);
      return typeof value === 'string' ? value : null;
    },
    setPassword: async (password: string) => void stored.set(name, password),
    deletePassword: async () => stored.delete(name),
    getSecret: async () => {
      const value = stored.get(name);
      return value instanceof Uint8Array ? Array.from(value) : null;
    },
    deleteCredential: async () => stored.delete(name),
  });
  class AsyncEntry {
    constructor(service: string, username: string, options?: unknown) {
      made.push({ how: 'new', args: [service, username, options] });
      return entry(`${username}.${service}`) as unknown as AsyncEntry;
    }
    static withTarget(target: string, service: string, username: string) {
      made.push({ how: 'withTarget', args: [target, service, username] });
      return entry(target);
    }
  }
  return { library: { AsyncEntry } as never, made, stored };
}

describe('keyringModule', () => {
  it('pins every Linux entry to the Secret Service', async () => {
    const { library: lib, made } = library();
    const module = keyringModule(lib, 'linux');
    await module.setPassword('Callout', 'p1', 'k');
    expect(await module.getPassword('Callout', 'p1')).toBe('k');
    expect(await module.deletePassword('Callout', 'p1')).toBe(true);
    expect(made.map((m) => m.args)).toEqual(Array(3).fill(['Callout', 'p1', { linux: { store: 'secret-service' } }]));
  });

  it('leaves macOS and Windows to their one keychain', async () => {
    for (const platform of ['darwin', 'win32'] as const) {
      const { library: lib, made } = library();
      await keyringModule(lib, platform).getPassword('Callout', 'p1');
      expect(made[0]!.args).toEqual(['Callout', 'p1', undefined]);
    }
  });

  it('a store that cannot be opened is a rejection, not a throw', async () => {
    class Unavailable {
      constructor() {
        throw new Error('Platform secure storage failure: no Secret Service');
      }
      static withTarget() {
        throw new Error('unused');
      }
    }
    const module = keyringModule({ AsyncEntry: Unavailable } as never, 'linux');
    let thrown: unknown = null;
    const pending = (() => {
      try {
        return module.getPassword('Callout', 'p1');
      } catch (error) {
        thrown = error;
        return null;
      }
    })();
    expect(thrown).toBeNull();
    await expect(pending).rejects.toThrow(/no Secret Service/);
  });
});

describe("keytar's Windows credentials", () => {
  it('are read by the name keytar gave them ("service/account"), as UTF-8, and removed by it', async () => {
    const { library: lib, made, stored } = library();
    stored.set(keytarWindowsTarget('Callout', 'p1'), new TextEncoder().encode('sk-live-密钥'));
    const layout = windowsKeytarLayout(lib);
    expect(await layout.read('Callout', 'p1')).toBe('sk-live-密钥');
    expect(made[0]).toEqual({ how: 'withTarget', args: ['Callout/p1', 'Callout', 'p1'] });
    expect(await layout.read('Callout', 'p2')).toBeNull();
    expect(await layout.remove('Callout', 'p1')).toBe(true);
    expect(await layout.read('Callout', 'p1')).toBeNull();
  });
});
