/** The output formats of `probe --format`, each loaded only when selected. */
import type { ProbeReport } from './probe.js';

export const PROBE_FORMATS = ['stylish', 'json', 'markdown'] as const;
export type ProbeFormat = (typeof PROBE_FORMATS)[number];

export const PROBE_FORMAT_LOADERS = {
  stylish: async () => (await import('./format-text.js')).formatText,
  json: async () => (await import('./format-json.js')).formatJson,
  markdown: async () => (await import('./format-markdown.js')).formatMarkdown,
} satisfies Record<ProbeFormat, () => Promise<(report: ProbeReport) => string>>;
