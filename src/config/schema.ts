/**
 * The JSON Schema of the config file, built from the rule registry (each rule id, and each
 * rule's declared options with their types and minimums). The same schema is published as
 * src/config/schema.json (for editors; a test keeps it equal to this) and printed by
 * `admission-lint config-schema`.
 */
import type { Rule } from '../rule.js';
import { PRESETS, PRESET_NAMES } from './presets.js';
import { SEVERITY_SPELLINGS } from './severity.js';

/** The same pattern as `--kube-version` accepts. */
export const KUBE_VERSION_PATTERN = '^v?1\\.[0-9]{1,3}(\\.[0-9]+)?$';
export const CONFIG_KEYS = ['extends', 'rules', 'ignore', 'kubeVersion', 'failOn', 'trustedNamespaceLabels'] as const;

type JsonSchema = Record<string, unknown>;

function ruleSchema(rule: Rule): JsonSchema {
  const options: Record<string, JsonSchema> = {};
  for (const [name, option] of Object.entries(rule.meta.options ?? {})) {
    options[name] = {
      type: option.type,
      description: option.description,
      default: option.default,
      ...(option.minimum !== undefined ? { minimum: option.minimum } : {}),
    };
  }
  return {
    description: `${rule.meta.title} (default severity: ${rule.meta.severity})`,
    anyOf: [
      { $ref: '#/definitions/severity' },
      {
        type: 'object',
        additionalProperties: false,
        properties: {
          severity: { $ref: '#/definitions/severity' },
          options: { type: 'object', additionalProperties: false, properties: options },
        },
      },
    ],
  };
}

export function buildConfigSchema(rules: readonly Rule[]): JsonSchema {
  const ruleProperties: Record<string, JsonSchema> = {};
  for (const rule of [...rules].sort((a, b) => (a.meta.id < b.meta.id ? -1 : a.meta.id > b.meta.id ? 1 : 0))) ruleProperties[rule.meta.id] = ruleSchema(rule);
  return {
    $schema: 'http://json-schema.org/draft-07/schema#',
    title: 'admission-lint configuration (.admission-lint.yaml or .admission-lint.json)',
    type: 'object',
    additionalProperties: false,
    definitions: {
      severity: {
        description: 'off, or the severity every finding of the rule gets; warn, and 0, 1, 2 (off, warning, error) as ESLint spells them, are accepted too',
        enum: SEVERITY_SPELLINGS,
      },
      preset: {
        description: PRESET_NAMES.map((name) => `${name}: ${PRESETS[name].description}`).join('; '),
        enum: PRESET_NAMES,
      },
    },
    properties: {
      extends: {
        description: 'Built-in presets to start from, applied in order (default: recommended). Only these names: a config never loads files or code.',
        anyOf: [{ $ref: '#/definitions/preset' }, { type: 'array', items: { $ref: '#/definitions/preset' } }],
      },
      rules: {
        description: 'Per rule id: off|info|warning|error (or warn, 0, 1, 2), or {severity, options}.',
        type: 'object',
        additionalProperties: false,
        properties: ruleProperties,
      },
      ignore: {
        description: 'Paths not to lint, relative to the folder of the config file: * and ? within a name, ** for any folders; a pattern without / matches at any depth; a folder pattern ignores what is under it.',
        type: 'array',
        items: { type: 'string', minLength: 1, pattern: '^[^!]' },
      },
      kubeVersion: {
        description: 'The Kubernetes version to check against, as a string ("1.30"); --kube-version overrides it.',
        type: 'string',
        pattern: KUBE_VERSION_PATTERN,
      },
      failOn: {
        description: 'Exit 1 when a finding is at least this severe; --fail-on overrides it.',
        enum: ['error', 'warning', 'info', 'never', 'warn'],
      },
      trustedNamespaceLabels: {
        description: 'Namespace label keys that namespace owners cannot change; --trusted-namespace-label replaces this list.',
        type: 'array',
        items: { type: 'string', minLength: 1 },
      },
    },
  };
}

export function configSchemaText(rules: readonly Rule[]): string {
  return `${JSON.stringify(buildConfigSchema(rules), null, 2)}\n`;
}
