// The person's own mobile number for "call me first", remembered in this renderer's storage. It is
// only ever what the person typed in that field themselves: never taken from a send to someone else.
const OWN_MOBILE_KEY = 'callout.ownMobile';

export function savedOwnMobile(): string {
  try {
    return window.localStorage.getItem(OWN_MOBILE_KEY) ?? '';
  } catch {
    return '';
  }
}

export function saveOwnMobile(mobile: string): void {
  try {
    window.localStorage.setItem(OWN_MOBILE_KEY, mobile);
  } catch {
    // Without storage the number is typed again next time; nothing else depends on it.
  }
}
