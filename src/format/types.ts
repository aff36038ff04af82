/**
 * What every formatter gets: the report, plus what it may need beyond it, passed in by the CLI.
 * Formatters are pure functions of these: they never read files, the environment or the clock.
 */
import type { Report } from '../engine/finding.js';
import type { RuleMeta } from '../rule.js';

export type { Inventory, InventoryObject } from '../engine/finding.js';
import type { Inventory } from '../engine/finding.js';
import type { HiddenFindings } from './hidden.js';
import type { FixesOf } from '../fix/report-fixes.js';

export type { HiddenFindings } from './hidden.js';

export interface FormatOptions {
  /** The metadata of every registered rule, in registry order (SARIF lists them all). */
  readonly rules: readonly RuleMeta[];
  /** The Markdown of a rule doc's "What it does" section, when there is one (SARIF fullDescription). */
  readonly ruleDescription?: (ruleId: string) => string | undefined;
  /** The absolute folder that relative paths in the report are relative to (SARIF's SRCROOT). */
  readonly cwd: string;
  readonly color: boolean;
  /** The files and objects of the run; without it JUnit knows only the objects that have findings. */
  readonly inventory?: Inventory;
  /** The terminal's width, when output goes to one (stylish wraps to it); undefined: no wrapping. */
  readonly width?: number;
  /** What `-q` and `--baseline` left out of the report, when they were given. */
  readonly hidden?: HiddenFindings;
  /** stylish: print each finding's fix (`--show-fixes`: its own edits from `fixes`, else the rule's help); the other formats always carry the help. */
  readonly showFixes?: boolean;
  /** Each finding's fixes and suggestions (src/fix/), for the formats that carry them: SARIF, rdjson. */
  readonly fixes?: FixesOf;
}

export type Formatter = (report: Report, options: FormatOptions) => string;
