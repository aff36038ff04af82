/**
 * The built-in presets a config file can extend. A preset is data of the same shape as the
 * config's own keys; presets apply in the order listed, then the config file, then the
 * command line. `recommended` is the default: every rule at its documented severity.
 */
import type { FailOn } from '../severity.js';
import type { RuleSetting } from './types.js';

export interface Preset {
  readonly description: string;
  readonly failOn?: FailOn;
  readonly rules: Readonly<Record<string, RuleSetting>>;
}

export const PRESETS = {
  recommended: {
    description: 'every rule at its default severity; exit 1 on errors',
    rules: {},
  },
  strict: {
    description: 'exit 1 on warnings too; fail-open and validation-actions become warnings; long-timeout reports timeouts above 10 seconds',
    failOn: 'warning',
    rules: {
      'fail-open': 'warning',
      'validation-actions': 'warning',
      'long-timeout': { options: { thresholdSeconds: 10 } },
    },
  },
  security: {
    description: 'the ways to bypass a webhook or policy become errors (editable selectors, namespaces that opt out, matchPolicy Exact); fail-open and validation-actions become warnings',
    rules: {
      'editable-namespace-selector': 'error',
      'editable-object-selector': 'error',
      'namespace-opts-out': 'error',
      'match-policy-exact': 'error',
      'fail-open': 'warning',
      'validation-actions': 'warning',
    },
  },
} as const satisfies Record<string, Preset>;

export type PresetName = keyof typeof PRESETS;
export const PRESET_NAMES = Object.keys(PRESETS) as PresetName[];
