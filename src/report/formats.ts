/**
 * The output formats of `report --format`, each loaded only when selected. A format without a
 * loader here is a type error.
 */
import type { BlastRadiusReport } from './build.js';

export const REPORT_FORMATS = ['text', 'json', 'markdown', 'html'] as const;
export type ReportFormat = (typeof REPORT_FORMATS)[number];

export const REPORT_FORMAT_LOADERS = {
  text: async () => (await import('./format-text.js')).formatText,
  json: async () => (await import('./format-json.js')).formatJson,
  markdown: async () => (await import('./format-markdown.js')).formatMarkdown,
  html: async () => (await import('./format-html.js')).formatHtml,
} satisfies Record<ReportFormat, () => Promise<(report: BlastRadiusReport) => string>>;
