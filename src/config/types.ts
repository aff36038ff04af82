import type { FailOn } from '../severity.js';
import type { SeverityOverride } from '../severity.js';
import type { SeveritySpelling } from './severity.js';

export type OptionValue = number | string;

/** What `rules.<id>` may be in a config file: a severity (any spelling of severity.ts), or a severity and options. */
export type RuleSetting = SeveritySpelling | { readonly severity?: SeveritySpelling; readonly options?: Readonly<Record<string, OptionValue>> };

/** The config file as written (after schema validation). */
export interface ConfigFile {
  readonly extends?: string | readonly string[];
  readonly rules?: Readonly<Record<string, RuleSetting>>;
  readonly ignore?: readonly string[];
  readonly kubeVersion?: string;
  /** `warn` is read as `warning`, as for rule severities. */
  readonly failOn?: FailOn | 'warn';
  readonly trustedNamespaceLabels?: readonly string[];
}

/** Presets and the config file merged; the command line is applied on top of this. */
export interface ResolvedConfig {
  /** The config file's path as shown in messages, or null when there is none. */
  readonly file: string | null;
  /** The config file's absolute path (not linted as a manifest). */
  readonly path?: string;
  /** Absolute folder the `ignore` patterns are relative to (the config file's, else the cwd). */
  readonly baseDir: string;
  readonly severities: ReadonlyMap<string, SeverityOverride>;
  readonly options: ReadonlyMap<string, Readonly<Record<string, OptionValue>>>;
  readonly ignore: readonly string[];
  readonly kubeVersion?: string;
  readonly failOn?: FailOn;
  readonly trustedNamespaceLabels?: readonly string[];
}
