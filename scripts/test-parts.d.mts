// Types of test-parts.mjs (plain JavaScript: npm test reads it before anything is built).
/** Paths (files, or folders ending in /) given to vitest as filters, each with what it holds to the Node. */
export const NODE_DEPENDENT: { path: string; why: string }[];
