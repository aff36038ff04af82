/**
 * The output formats of `simulate --format`, each loaded only when selected. A format without a
 * loader here is a type error.
 */
import type { AdmissionPath } from './path.js';

export const SIMULATE_FORMATS = ['text', 'json', 'markdown'] as const;
export type SimulateFormat = (typeof SIMULATE_FORMATS)[number];

export const SIMULATE_FORMAT_LOADERS = {
  text: async () => (await import('./format-text.js')).formatText,
  json: async () => (await import('./format-json.js')).formatJson,
  markdown: async () => (await import('./format-markdown.js')).formatMarkdown,
} satisfies Record<SimulateFormat, () => Promise<(path: AdmissionPath) => string>>;
