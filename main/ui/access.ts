// Who may use the browser console of `callout ui`, as plain checks on request headers (no I/O):
// - a one-time token (256 random bits, fresh per start) in the link printed by `callout ui`, exchanged
//   once, within LINK_LIFETIME_MS of being printed, for a session cookie (HttpOnly, SameSite=Strict)
//   whose value is another random secret; a session ends after SESSION_IDLE_MS without a request;
// - the Host header must name the bound address and port exactly (DNS rebinding);
// - a request another site started is refused: an Origin other than the console's own, or a
//   Sec-Fetch-Site other than same-origin / none (a page on another port of 127.0.0.1 is "same-site"
//   and would get the cookie: only the console's own page, or the person typing the address, counts).
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { isIP } from 'node:net';
import { systemClock, type Clock } from '../clock';

/** Bytes of randomness in a token and in a session cookie (256 bits). */
export const SECRET_BYTES = 32;

/** How long a printed link can be opened: 10 minutes (then `callout ui` prints a new one on Enter, or again). */
export const LINK_LIFETIME_MS = 10 * 60_000;

/** A session ends after 12 hours without a request or a call from its pages. */
export const SESSION_IDLE_MS = 12 * 60 * 60_000;

/**
 * How long an unused link's token and an ended session are remembered, so that opening them says
 * "expired" / "ended" rather than "open Callout with its link"; after that they are forgotten (a
 * console left running for weeks, Enter pressed for many links, keeps no growing list).
 */
export const REMEMBER_MS = 7 * 24 * 60 * 60_000;

export function newSecret(): string {
  return randomBytes(SECRET_BYTES).toString('base64url');
}

/** Compares two secrets in constant time (for equal lengths). */
export function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** The value of one cookie in a Cookie header (the first of that name), or undefined. */
export function cookieValue(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    if (part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

/** The address as it appears in a URL and a Host header: IPv6 literals in brackets. */
export function hostForUrl(address: string): string {
  return isIP(address) === 6 ? `[${address}]` : address;
}

/** True for addresses of this machine only (127.0.0.0/8, ::1, localhost). */
export function isLoopback(address: string): boolean {
  const a = address.toLowerCase().replace(/^\[|\]$/g, '');
  return a === 'localhost' || a === '::1' || a === '0:0:0:0:0:0:0:1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(a) || a === '::ffff:127.0.0.1';
}

/** Addresses that mean "every interface": the Host header could then be anything, so they are refused. */
export function isWildcard(address: string): boolean {
  const a = address.replace(/^\[|\]$/g, '');
  return a === '0.0.0.0' || a === '::' || a === '0:0:0:0:0:0:0:0' || a === '';
}

export type Refusal = { status: 401 | 403; why: 'host' | 'origin' | 'fetch-site' | 'session' };

export interface ConsoleAccessOptions {
  /** The address the server is bound to (an IP literal or localhost). */
  address: string;
  port: number;
  /** Where the time comes from (links and sessions expire); default the system's. */
  clock?: Clock;
}

/** What a link's token is worth: a session, or why not (unknown or used, or expired). */
export type Redeemed = { session: string } | { refused: 'unknown' | 'expired' };

/** A request's session: live, ended (idle for SESSION_IDLE_MS, or the link that made it), or none. */
export type SessionState = 'live' | 'ended' | 'none';

/** The console's gate: tokens, sessions and the checks every request and upgrade go through. */
export class ConsoleAccess {
  /** http://127.0.0.1:PORT — the console's own origin. */
  readonly origin: string;
  /** The one Host header accepted: 127.0.0.1:PORT. */
  readonly host: string;
  /** Cookies are not kept apart by port: each console's cookie carries its port in its name. */
  readonly cookieName: string;
  /** Tokens not yet used, with when each was issued. */
  private readonly tokens = new Map<string, number>();
  /** Sessions, with when each was last used. */
  private readonly sessions = new Map<string, number>();
  /** Sessions that ended idle, with when they ended (remembered for REMEMBER_MS). */
  private readonly ended = new Map<string, number>();
  private readonly clock: Clock;

  constructor(o: ConsoleAccessOptions) {
    this.clock = o.clock ?? systemClock;
    this.host = `${hostForUrl(o.address)}:${o.port}`.toLowerCase();
    this.origin = `http://${this.host}`;
    this.cookieName = `callout-console-${o.port}`;
  }

  /** A fresh one-time token for a link. */
  issueToken(): string {
    this.sweep();
    const token = newSecret();
    this.tokens.set(token, this.clock.now());
    return token;
  }

  /** Exchanges a token (once, within LINK_LIFETIME_MS of its link) for a new session id. */
  redeem(token: string | null | undefined): Redeemed {
    if (!token) return { refused: 'unknown' };
    this.sweep();
    const now = this.clock.now();
    for (const [known, issuedAt] of this.tokens) {
      if (sameSecret(known, token)) {
        this.tokens.delete(known);
        if (now - issuedAt >= LINK_LIFETIME_MS) return { refused: 'expired' };
        const session = newSecret();
        this.sessions.set(session, now);
        return { session };
      }
    }
    return { refused: 'unknown' };
  }

  /** The Set-Cookie header value for a session: HttpOnly, SameSite=Strict, for the whole console. */
  sessionCookie(session: string): string {
    return `${this.cookieName}=${session}; Path=/; HttpOnly; SameSite=Strict`;
  }

  /** True for a live session (its use now keeps it alive); one idle for SESSION_IDLE_MS is forgotten. */
  hasSession(cookieHeader: string | undefined): boolean {
    return this.sessionState(cookieHeader) === 'live';
  }

  /** As hasSession, and for a refusal whether the cookie named a session that has ended (idle). */
  sessionState(cookieHeader: string | undefined): SessionState {
    const value = cookieValue(cookieHeader, this.cookieName);
    if (!value) return 'none';
    this.sweep();
    if (this.touch(value)) return 'live';
    for (const known of this.ended.keys()) if (sameSecret(known, value)) return 'ended';
    return 'none';
  }

  /** Notes a use of the session with this cookie value; false when it is unknown or ended idle. */
  touch(value: string): boolean {
    const now = this.clock.now();
    for (const [known, lastUsed] of this.sessions) {
      if (!sameSecret(known, value)) continue;
      if (now - lastUsed >= SESSION_IDLE_MS) {
        this.sessions.delete(known);
        this.ended.set(known, now);
        return false;
      }
      this.sessions.set(known, now);
      return true;
    }
    return false;
  }

  /**
   * The checks before anything else: the Host, and where the request comes from. `originRequired`
   * for WebSocket upgrades (browsers always send Origin there).
   */
  checkSource(headers: { host?: string; origin?: string; 'sec-fetch-site'?: string }, originRequired = false): Refusal | null {
    if ((headers.host ?? '').toLowerCase() !== this.host) return { status: 403, why: 'host' };
    const origin = headers.origin;
    if (origin === undefined ? originRequired : origin.toLowerCase() !== this.origin) return { status: 403, why: 'origin' };
    const site = headers['sec-fetch-site'];
    if (site !== undefined && site !== 'same-origin' && site !== 'none') return { status: 403, why: 'fetch-site' };
    return null;
  }

  /**
   * Forgets what no longer needs remembering: sessions idle past SESSION_IDLE_MS become ended, and
   * tokens and ended sessions older than REMEMBER_MS go.
   */
  private sweep(): void {
    const now = this.clock.now();
    for (const [token, issuedAt] of this.tokens) if (now - issuedAt >= REMEMBER_MS) this.tokens.delete(token);
    for (const [session, lastUsed] of this.sessions) {
      if (now - lastUsed < SESSION_IDLE_MS) continue;
      this.sessions.delete(session);
      this.ended.set(session, now);
    }
    for (const [session, endedAt] of this.ended) if (now - endedAt >= REMEMBER_MS) this.ended.delete(session);
  }

  /** How many tokens and sessions (live or ended) are remembered: for the test that nothing grows unbounded. */
  remembered(): { tokens: number; sessions: number; ended: number } {
    return { tokens: this.tokens.size, sessions: this.sessions.size, ended: this.ended.size };
  }

  /** Forgets every token and session (the server is stopping). */
  clear(): void {
    this.tokens.clear();
    this.ended.clear();
    this.sessions.clear();
  }
}
