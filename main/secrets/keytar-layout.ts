// API Keys that keytar stored, before Callout moved to @napi-rs/keyring. The two libraries file an
// entry under different names on Linux and Windows, so the new one cannot see the old entries:
//
// - Linux (Secret Service): keytar (libsecret) writes the attributes { service, account,
//   xdg:schema: org.freedesktop.Secret.Generic }, labelled "service/account"; @napi-rs/keyring
//   writes { service, username }. Read here through the Secret Service's D-Bus API itself
//   (@jellybrick/dbus-next, pure JavaScript: nothing to compile), searching { service, account }.
// - Windows (Credential Manager): keytar's generic credential is named "service/account" and holds
//   the key as UTF-8; @napi-rs/keyring names its own "account.service" and reads UTF-16. Read with
//   @napi-rs/keyring's withTarget("service/account") as raw bytes, decoded as UTF-8.
// - macOS (Keychain): both write a generic password with the same service and account, so the new
//   library reads keytar's entries as its own: nothing to do.
//
// The keychain store (keychain-store.ts) asks here only when its own entry is missing, moves a key
// found here into its own layout and removes the old entry, and removes an old entry on every set
// and delete, so that a key a person replaced or deleted never comes back from the old layout.
//
// THE ONLY MODULE THAT LOADS @jellybrick/dbus-next (test/integration/secrets/keychain-boundary.test.ts).
import type { EventEmitter } from 'node:events';
import { createRequire } from 'node:module';

/** Reads and removes entries in keytar's layout. */
export interface KeytarLayout {
  /** The key keytar stored for (service, account), or null. Rejects when the keychain cannot be read. */
  read(service: string, account: string): Promise<string | null>;
  /** Removes keytar's entry; true when there was one. */
  remove(service: string, account: string): Promise<boolean>;
}

/** The part of @napi-rs/keyring this module uses on Windows. */
export interface TargetEntryLibrary {
  AsyncEntry: {
    withTarget(
      target: string,
      service: string,
      username: string,
    ): {
      getSecret(): Promise<ArrayLike<number> | null>;
      deleteCredential(): Promise<boolean>;
    };
  };
}

/** keytar's Windows credential name. */
export function keytarWindowsTarget(service: string, account: string): string {
  return `${service}/${account}`;
}

/** Windows: keytar's credential, read through @napi-rs/keyring by its target name. */
export function windowsKeytarLayout(library: TargetEntryLibrary): KeytarLayout {
  const entry = (service: string, account: string) => library.AsyncEntry.withTarget(keytarWindowsTarget(service, account), service, account);
  return {
    async read(service, account) {
      const bytes = await entry(service, account).getSecret();
      return bytes === null ? null : Buffer.from(Array.from(bytes)).toString('utf8');
    },
    remove: (service, account) => entry(service, account).deleteCredential(),
  };
}

const SECRETS = 'org.freedesktop.secrets';
const SERVICE_PATH = '/org/freedesktop/secrets';
const SERVICE_IFACE = 'org.freedesktop.Secret.Service';

type DBusModule = typeof import('@jellybrick/dbus-next');

/** A method call to the Secret Service; resolves with the reply's body. */
type Call = (path: string, iface: string, member: string, signature: string, body: unknown[]) => Promise<unknown[]>;

/**
 * Linux: keytar's items in the Secret Service, found by { service, account }. Each call opens its own
 * session bus connection and closes it. A locked item is reported as an error (the new library
 * reports a locked keychain the same way), never as "no key".
 */
export function secretServiceKeytarLayout(env: NodeJS.ProcessEnv = process.env): KeytarLayout {
  async function withBus<T>(use: (call: Call, dbus: DBusModule) => Promise<T>): Promise<T> {
    const dbus = createRequire(import.meta.url)('@jellybrick/dbus-next') as DBusModule;
    const bus = dbus.sessionBus({ busAddress: env.DBUS_SESSION_BUS_ADDRESS });
    // A bus that cannot connect emits 'error'; without a listener that would end the process.
    // (The library emits 'error' on the bus without declaring it in its event types.)
    const failed = new Promise<never>((_, reject) =>
      (bus as unknown as EventEmitter).on('error', (error: unknown) => reject(error instanceof Error ? error : new Error(String(error)))),
    );
    failed.catch(() => undefined);
    const call: Call = async (path, iface, member, signature, body) => {
      const reply = await Promise.race([bus.call(new dbus.Message({ destination: SECRETS, path, interface: iface, member, signature, body })), failed]);
      return reply?.body ?? [];
    };
    try {
      // GNOME Keyring (42 to 50 at least) admits a new connection as a client in an idle callback
      // that a method call can beat: a connection whose first call is SearchItems or OpenSession
      // then gets an error, or aborts the daemon (which comes back locked). An answered property
      // read first has the connection admitted, in practice, before anything that needs it.
      await call(SERVICE_PATH, 'org.freedesktop.DBus.Properties', 'Get', 'ss', [SERVICE_IFACE, 'Collections']).catch(() => undefined);
      return await use(call, dbus);
    } finally {
      bus.disconnect();
    }
  }

  async function search(call: Call, service: string, account: string) {
    const [unlocked, locked] = (await call(SERVICE_PATH, SERVICE_IFACE, 'SearchItems', 'a{ss}', [{ service, account }])) as [string[], string[]];
    if (locked.length) throw new Error('the entry keytar stored is in a locked collection');
    return unlocked;
  }

  return {
    async read(service, account) {
      if (!env.DBUS_SESSION_BUS_ADDRESS) return null;
      return withBus(async (call, dbus) => {
        const items = await search(call, service, account);
        if (!items.length) return null;
        // A plain session (libsecret would negotiate an encrypted one): for this one read of an old
        // entry, the key crosses the user's own session bus, which only the user's processes reach.
        const [, session] = (await call(SERVICE_PATH, SERVICE_IFACE, 'OpenSession', 'sv', ['plain', new dbus.Variant('s', '')])) as [unknown, string];
        try {
          const [secrets] = (await call(SERVICE_PATH, SERVICE_IFACE, 'GetSecrets', 'aoo', [items, session])) as [
            Record<string, [string, Buffer, Buffer, string]>,
          ];
          const found = secrets[items[0]!];
          return found ? Buffer.from(found[2]).toString('utf8') : null;
        } finally {
          await call(session, 'org.freedesktop.Secret.Session', 'Close', '', []).catch(() => undefined);
        }
      });
    },
    async remove(service, account) {
      if (!env.DBUS_SESSION_BUS_ADDRESS) return false;
      return withBus(async (call) => {
        const items = await search(call, service, account);
        for (const item of items) await call(item, 'org.freedesktop.Secret.Item', 'Delete', '', []);
        return items.length > 0;
      });
    },
  };
}

/** Nothing to read: the platform's new layout is keytar's (macOS), or no keychain is known. */
export const NO_KEYTAR_LAYOUT: KeytarLayout = {
  read: async () => null,
  remove: async () => false,
};

/** keytar's layout on this platform. */
export function keytarLayoutFor(platform: NodeJS.Platform, library: TargetEntryLibrary, env: NodeJS.ProcessEnv = process.env): KeytarLayout {
  if (platform === 'win32') return windowsKeytarLayout(library);
  if (platform === 'darwin') return NO_KEYTAR_LAYOUT;
  return secretServiceKeytarLayout(env);
}
