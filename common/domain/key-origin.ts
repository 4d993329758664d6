/**
 * Where an API Key may go. A key belongs to the origin (scheme, host, port) it was entered for:
 * changing a profile's address to another origin takes the key away from it (it must be entered
 * again), and plain `http://` carries it only to this machine (loopback) unless a person ticked
 * "send my key unencrypted". One rule for the profile service, the CLI and the profile form.
 */

/** How a request to this address would carry the key. */
export type KeyTransport = 'https' | 'loopback-http' | 'plain-http';

/** `scheme://host[:port]` with the scheme's default port left out, or null for what is not an http(s) URL. */
export function originOf(url: string): string | null {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return null;
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return null;
  return u.origin;
}

/** Whether two addresses are the same origin (two unreadable ones are not). */
export function sameOrigin(a: string, b: string): boolean {
  const x = originOf(a);
  return x !== null && x === originOf(b);
}

/** localhost (and *.localhost), 127.0.0.0/8 and ::1: addresses that never leave this machine. */
export function isLoopbackHost(hostname: string): boolean {
  const h = hostname.toLowerCase().replace(/^\[|\]$/g, '');
  if (h === 'localhost' || h.endsWith('.localhost')) return true;
  if (h === '::1' || h === '0:0:0:0:0:0:0:1') return true;
  // The WHATWG URL parser has already turned 127.1, 0x7f.1 and friends into dotted quads.
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h);
}

export function keyTransport(url: string): KeyTransport {
  const u = new URL(url);
  if (u.protocol === 'https:') return 'https';
  return isLoopbackHost(u.hostname) ? 'loopback-http' : 'plain-http';
}

/** Whether a key may be sent to this address: https, loopback http, or plain http with the person's consent. */
export function keyMayGoTo(url: string, sendKeyUnencrypted: boolean): boolean {
  return keyTransport(url) !== 'plain-http' || sendKeyUnencrypted;
}
