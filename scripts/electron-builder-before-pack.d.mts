// Types for the electron-builder beforePack hook, so TypeScript tests can import it.
export interface NativeBuildTarget {
  projectDir: string;
  /** electron-builder's electronPlatformName: linux, darwin, mas or win32. */
  platform: string;
  /** x64, arm64, ia32, armv7l or universal. */
  arch: string;
  electronVersion: string | undefined;
}
export function checkNativeBuilds(target: NativeBuildTarget): string[];
export function archName(arch: number | string): string;
export function beforePack(context: {
  packager?: { projectDir?: string; info?: { framework?: { version?: string } } };
  electronPlatformName: string;
  arch: number;
}): Promise<void>;
export default beforePack;
