/**
 * The output formats of `lint --format`. Each formatter is loaded only when it is selected, so
 * start-up pays for the one in use. A format without a loader here is a type error.
 */
import type { Formatter } from './types.js';

export const FORMATS = ['stylish', 'compact', 'json', 'sarif', 'github', 'gitlab', 'junit', 'markdown', 'rdjson'] as const;
export type FormatName = (typeof FORMATS)[number];

/**
 * The formats that say themselves what `-q` and `--baseline` hid: stylish and markdown in their
 * summary, JSON in its `hidden` field. For the others (which have no place for it) the CLI says
 * it on stderr, so that a hidden finding is never silent.
 */
export const FORMATS_THAT_REPORT_HIDDEN: ReadonlySet<FormatName> = new Set(['stylish', 'markdown', 'json']);

/** Formats whose summary says how the gate was changed (src/format/gate.ts); the CLI says it on stderr for the others. */
export const FORMATS_THAT_SAY_THE_GATE: ReadonlySet<FormatName> = new Set(['stylish', 'markdown']);

export const FORMAT_LOADERS = {
  stylish: async () => {
    const [{ formatStylish }, { Chalk }] = await Promise.all([import('./stylish.js'), import('chalk')]);
    return (report, options) => formatStylish(report, new Chalk({ level: options.color ? 1 : 0 }), { width: options.width, hidden: options.hidden, showFixes: options.showFixes, fixes: options.fixes });
  },
  compact: async () => (await import('./compact.js')).formatCompact,
  json: async () => (await import('./json.js')).formatJson,
  sarif: async () => (await import('./sarif.js')).formatSarif,
  github: async () => (await import('./github.js')).formatGithub,
  gitlab: async () => (await import('./gitlab.js')).formatGitlab,
  junit: async () => (await import('./junit.js')).formatJunit,
  markdown: async () => (await import('./markdown.js')).formatMarkdown,
  rdjson: async () => (await import('./rdjson.js')).formatRdjson,
} satisfies Record<FormatName, () => Promise<Formatter>>;

/** The formats that carry each finding's fixes and suggestions (the CLI plans them only for these). */
export const FORMATS_WITH_FIXES: ReadonlySet<FormatName> = new Set(['sarif', 'rdjson']);

export function loadFormatter(name: FormatName): Promise<Formatter> {
  return FORMAT_LOADERS[name]();
}
