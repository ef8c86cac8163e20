// Types of system-needs.mjs (plain JavaScript: npm test reads it before anything is built).
export function onPath(name: string): boolean;
export function isRoot(): boolean;
export interface SystemNeed {
  for: string;
  programs: string[];
  packages: string[];
  root?: boolean;
}
export const NEEDS: Record<string, SystemNeed>;
/** Why the need cannot be met here, or undefined when it can; throws on an unknown name. */
export function missing(name: string): string | undefined;
/** The one command that would make its tests run. */
export function remedy(name: string): string;
/** Installs what is missing (as root, with apt-get), or says what will be skipped; SAY prints one line. */
export function installMissing(say: (line: string) => void): Promise<void>;
