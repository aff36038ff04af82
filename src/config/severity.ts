/**
 * How a rule's severity may be written, in a config file and in `--rule`: our words, plus what
 * ESLint and Spectral users type out of habit (`warn`, and ESLint's 0, 1 and 2 for off, warning
 * and error, as numbers or, quoted in YAML or given to `--rule`, as text). Every spelling is
 * normalised here, so the rest of the program sees only ours.
 */
import type { SeverityOverride } from '../severity.js';

export const SEVERITY_WORDS = ['off', 'info', 'warning', 'error'] as const satisfies readonly SeverityOverride[];

const ALIASES = new Map<string | number, SeverityOverride>([
  ['warn', 'warning'],
  [0, 'off'],
  [1, 'warning'],
  [2, 'error'],
  ['0', 'off'],
  ['1', 'warning'],
  ['2', 'error'],
]);

/** Every accepted spelling, for the config's JSON Schema (`enum`). */
export const SEVERITY_SPELLINGS: readonly (string | number)[] = [...SEVERITY_WORDS, ...ALIASES.keys()];

/** A severity as the user wrote it. */
export type SeveritySpelling = SeverityOverride | 'warn' | 0 | 1 | 2 | '0' | '1' | '2';

/** Our severity for a spelling, or undefined when it is none. */
export function normalizeSeverity(value: unknown): SeverityOverride | undefined {
  if ((SEVERITY_WORDS as readonly unknown[]).includes(value)) return value as SeverityOverride;
  return typeof value === 'string' || typeof value === 'number' ? ALIASES.get(value) : undefined;
}
