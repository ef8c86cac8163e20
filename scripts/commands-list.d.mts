// Types of scripts/commands-list.mjs, for vitest.config.ts.
import type { Plugin as EsbuildPlugin } from 'esbuild';
import type { Plugin as VitePlugin } from 'vite';

export function commandFiles(dir: string): string[];
export function commandsModule(dir: string, absolute?: boolean): string;
export const commandsList: EsbuildPlugin;
export const commandsListVite: VitePlugin;
