/**
 * `--rule <id>=<severity>` and `--rule-option <id>.<name>=<value>`: parsed and checked against the
 * rule registry the CLI passes in (main.ts is where src/ imports the rules).
 */
import { normalizeSeverity } from '../config/severity.js';
import type { SeverityOverride } from '../severity.js';
import { UsageError } from '../errors.js';
import type { Rule } from '../rule.js';
import { closest } from '../text/closest.js';

export function unknownRule(id: string, rules: readonly Rule[]): UsageError {
  const suggestion = closest(id, rules.map((rule) => rule.meta.id));
  return new UsageError(`unknown rule "${id}"${suggestion ? `; did you mean "${suggestion}"?` : ''}`, 'admission-lint rules lists them');
}

export function parseRuleOverrides(specs: readonly string[], rules: readonly Rule[]): Map<string, SeverityOverride> {
  const known = new Set(rules.map((rule) => rule.meta.id));
  const overrides = new Map<string, SeverityOverride>();
  for (const spec of specs) {
    const match = /^([a-z0-9-]+)=([a-z0-9]+)$/.exec(spec.trim());
    const severity = match ? normalizeSeverity(match[2]) : undefined;
    if (!match || severity === undefined) throw new UsageError(`--rule "${spec}" is not <rule-id>=<off|info|warning|error>`, 'e.g. --rule editable-object-selector=off (warn, and 0, 1, 2 as in ESLint, work too)');
    if (!known.has(match[1]!)) throw unknownRule(match[1]!, rules);
    overrides.set(match[1]!, severity);
  }
  return overrides;
}

export function parseRuleOptions(specs: readonly string[], rules: readonly Rule[]): Map<string, Record<string, number | string>> {
  const options = new Map<string, Record<string, number | string>>();
  for (const spec of specs) {
    const match = /^([a-z0-9-]+)\.([A-Za-z0-9]+)=(.*)$/.exec(spec.trim());
    if (!match) throw new UsageError(`--rule-option "${spec}" is not <rule-id>.<option>=<value>`, 'e.g. --rule-option long-timeout.thresholdSeconds=10');
    const [, id, name, raw] = match as unknown as [string, string, string, string];
    const rule = rules.find((candidate) => candidate.meta.id === id);
    if (!rule) throw unknownRule(id, rules);
    const declared = rule.meta.options?.[name];
    if (!declared) {
      const known = Object.keys(rule.meta.options ?? {});
      throw new UsageError(`--rule-option: rule ${id} has no option "${name}"`, known.length > 0 ? `its options: ${known.join(', ')}` : 'it has no options');
    }
    let value: number | string = raw;
    if (declared.type === 'number') {
      value = Number(raw);
      if (raw.trim() === '' || !Number.isFinite(value) || (declared.minimum !== undefined && value < declared.minimum)) {
        throw new UsageError(`--rule-option ${id}.${name}: "${raw}" is not a number${declared.minimum !== undefined ? ` of at least ${declared.minimum}` : ''}`);
      }
    }
    options.set(id, { ...options.get(id), [name]: value });
  }
  return options;
}
