/**
 * The output formats of `lint --format`. Each formatter is loaded only when it is selected, so
 * start-up pays for the one in use. A format without a loader here is a type error.
 */
import type { Formatter } from './types.js';

export const FORMATS = ['stylish', 'json', 'sarif', 'github', 'junit', 'markdown'] as const;
export type FormatName = (typeof FORMATS)[number];

export const FORMAT_LOADERS = {
  stylish: async () => {
    const [{ formatStylish }, { Chalk }] = await Promise.all([import('./stylish.js'), import('chalk')]);
    return (report, options) => formatStylish(report, new Chalk({ level: options.color ? 1 : 0 }));
  },
  json: async () => (await import('./json.js')).formatJson,
  sarif: async () => (await import('./sarif.js')).formatSarif,
  github: async () => (await import('./github.js')).formatGithub,
  junit: async () => (await import('./junit.js')).formatJunit,
  markdown: async () => (await import('./markdown.js')).formatMarkdown,
} satisfies Record<FormatName, () => Promise<Formatter>>;

export function loadFormatter(name: FormatName): Promise<Formatter> {
  return FORMAT_LOADERS[name]();
}

