// Types of fresh-build.mjs (plain JavaScript: npm test runs it before anything is built).
/** Whether an input of the build is newer than dist/ (or dist/ is missing). */
export function isStale(): boolean;
/** Builds dist/ when it is stale, one process at a time; true when it is current after. */
export function buildIfStale(say?: (line: string) => void): boolean;
