// The quick dial's defaults, one place for main (the dialer, the CLI) and the palette (issue 25, item 9).
//
// An escalation list is for an incident: the next person must be reached quickly. The provider itself
// redials a call that is not answered (twice, see the spec and the sandbox's call script), so one call
// from Callout already rings a person up to three times: each person is called once by default and the
// next person at once when nobody answered (busy, declined, powered off and unreachable always move on at
// once: common/paging/timeline.ts afterCall). With calls that ring 30 s (DEFAULT_RING_SECONDS), the third
// person's phone rings 1:00 after the first, 2:40 with "until answered" switched on (2 calls 20 s apart);
// before, 3 attempts 60 s apart reached them after 7:00 (test/unit/dial/dialer.test.ts computes these on a
// ManualClock).
// Calling one person "until answered" keeps 3 attempts 60 s apart. A request that does not ask for more
// calls each person once (the dialer's and the CLI's default).

export interface DialDefaults {
  /** The palette's "call until answered" switch (off: each person is called once). */
  untilAnswered: boolean;
  /** Calls per person while nobody answers, when "until answered" is on. */
  attempts: number;
  /** Seconds between the end of a call that was not answered and the next attempt to the same person. */
  pauseSeconds: number;
}

/** Several people (a group, or a contact with an escalation list): once each, the next at once; switched to "until answered", 2 calls 20 s apart (the third person still rings within 3 min). */
export const LIST_DIAL_DEFAULTS: Readonly<DialDefaults> = Object.freeze({ untilAnswered: false, attempts: 2, pauseSeconds: 20 });
/** One person. */
export const ONE_DIAL_DEFAULTS: Readonly<DialDefaults> = Object.freeze({ untilAnswered: true, attempts: 3, pauseSeconds: 60 });

export function dialDefaults(people: number): Readonly<DialDefaults> {
  return people > 1 ? LIST_DIAL_DEFAULTS : ONE_DIAL_DEFAULTS;
}

/** The request's attempts and pause for the palette's choices. */
export function dialOptions(d: DialDefaults): { attempts: number; pauseSeconds?: number } {
  return d.untilAnswered ? { attempts: d.attempts, pauseSeconds: d.pauseSeconds } : { attempts: 1 };
}
