// Types for scripts/start.mjs, so TypeScript tests can import it.
import type { FetchResult } from './electron-binary.mjs';
export function displayProblem(env?: NodeJS.ProcessEnv, platform?: NodeJS.Platform): string | null;
export function chooseStart(o?: {
  env?: NodeJS.ProcessEnv;
  platform?: NodeJS.Platform;
  fetch?: (o: { env: NodeJS.ProcessEnv; progress: unknown }) => Promise<FetchResult>;
}): Promise<{ desktop: string; browser?: undefined } | { browser: string; desktop?: undefined }>;
export function electronViteBin(): string;
