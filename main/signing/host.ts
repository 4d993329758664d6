/**
 * The Host value that goes into the string to sign and the Host header (ARCHITECTURE decision):
 * the URL's host name, with the port only when it is not the scheme's default (80 for http,
 * 443 for https). IPv6 literals keep their brackets, e.g. `[::1]:8080`.
 */
export function hostOf(url: URL): string {
  const port = url.port;
  if (port === '') return url.hostname;
  if (url.protocol === 'http:' && port === '80') return url.hostname;
  if (url.protocol === 'https:' && port === '443') return url.hostname;
  return url.hostname + ':' + port;
}
