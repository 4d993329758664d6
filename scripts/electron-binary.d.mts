// Types for scripts/electron-binary.mjs, so TypeScript tests can import it.
export const ROOT: string;
export function electronDir(root?: string): string | null;
export function electronVersion(root?: string): string | null;
export function executableName(platform?: NodeJS.Platform | 'mas'): string;
export function findElectronBinary(o?: { root?: string; env?: NodeJS.ProcessEnv; platform?: NodeJS.Platform }): string | null;
export function failureReason(error: unknown): string;
export type FetchResult = { ok: true; path: string; fetched: boolean } | { ok: false; reason: string };
export function fetchElectronBinary(o?: {
  root?: string;
  env?: NodeJS.ProcessEnv;
  progress?: { isTTY?: boolean; write(s: string): unknown } | null;
}): Promise<FetchResult>;
export function unavailableLine(reason: string, version?: string | null): string;
