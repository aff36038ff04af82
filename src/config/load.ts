/**
 * Finds, reads and validates the config file, and merges it with its presets. The config is
 * data only: YAML 1.2 or JSON, no custom tags, no file or module references (`extends` takes
 * built-in preset names), so linting an untrusted pull request never runs code from it.
 */
import { readRegularFile } from '../load/sources.js';
import type { ErrorObject } from 'ajv';
import { existsSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { isMap, isScalar, isSeq, LineCounter, parseDocument, type Document, type Node } from 'yaml';
import { ConfigError } from '../errors.js';
import type { SeverityOverride } from '../severity.js';
import type { Rule } from '../rule.js';
import { closest } from '../text/closest.js';
import { PRESETS, PRESET_NAMES, type PresetName } from './presets.js';
import { buildConfigSchema, CONFIG_KEYS } from './schema.js';
import { SEVERITY_WORDS, normalizeSeverity } from './severity.js';
import type { ConfigFile, OptionValue, ResolvedConfig, RuleSetting } from './types.js';
import { pointerToPath } from '../json.js';
import { joinWords } from '../text/list.js';

export const CONFIG_FILE_NAMES = ['.admission-lint.yaml', '.admission-lint.yml', '.admission-lint.json'] as const;

/** The config file that applies to `cwd`: the first folder upwards that has one. */
export function discoverConfig(cwd: string): string | undefined {
  let dir = resolve(cwd);
  for (;;) {
    const found = CONFIG_FILE_NAMES.map((name) => join(dir, name)).filter((path) => isFile(path));
    if (found.length > 1) {
      throw new ConfigError(`${display(found[0]!, cwd)}: more than one config file in ${display(dir, cwd) || '.'} (${found.map((path) => path.slice(dir.length + 1)).join(', ')}); keep one`);
    }
    if (found.length === 1) return found[0];
    const parent = dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

function display(path: string, cwd: string): string {
  const rel = relative(cwd, path).split('\\').join('/');
  return rel === '' ? '.' : rel;
}

export interface LoadConfigOptions {
  readonly cwd: string;
  /** `--config <file>`: used instead of discovery; it must exist. */
  readonly explicit?: string;
  readonly rules: readonly Rule[];
  /**
   * false: no config file is looked for (`--no-config-lookup`), so a pull request's
   * `.admission-lint.yaml` cannot change the gate; `explicit` still applies.
   */
  readonly lookup?: boolean;
}

/** The config that applies: the explicit or discovered file merged over its presets, or the defaults. */
/** A config file is a few lines. */
const MAX_CONFIG_BYTES = 1024 * 1024;

export function loadConfig(options: LoadConfigOptions): ResolvedConfig {
  let absolute: string | undefined;
  let shown: string;
  if (options.explicit !== undefined) {
    absolute = resolve(options.cwd, options.explicit);
    shown = options.explicit.split('\\').join('/');
    if (!existsSync(absolute)) throw new ConfigError(`${shown}: no such config file`);
  } else {
    absolute = options.lookup === false ? undefined : discoverConfig(options.cwd);
    shown = absolute === undefined ? '' : display(absolute, options.cwd);
  }
  if (absolute === undefined) return resolveConfig({}, null, resolve(options.cwd));
  // Only a regular file of sane size: a committed config may be a link to /dev/zero.
  const read = readRegularFile(absolute, MAX_CONFIG_BYTES);
  if (read.kind === 'error') throw new ConfigError(`${shown}: cannot read the config file: ${read.code}`);
  if (read.kind === 'not-regular') throw new ConfigError(`${shown}: the config file is not a regular file`);
  if (read.kind === 'too-large') throw new ConfigError(`${shown}: the config file is larger than ${MAX_CONFIG_BYTES / 1024} KiB`);
  const text = Buffer.from(read.bytes).toString('utf8');
  return resolveConfig(parseConfig(text, shown, options.rules), shown, dirname(absolute), absolute);
}

/** Parses and validates config text; throws a one-line ConfigError naming file, position and key. */
export function parseConfig(raw: string, file: string, rules: readonly Rule[]): ConfigFile {
  const text = raw.charCodeAt(0) === 0xfeff ? raw.slice(1) : raw;
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { version: '1.2', uniqueKeys: true, prettyErrors: false, lineCounter, logLevel: 'error' });
  const problem = doc.errors[0] ?? doc.warnings[0];
  if (problem) {
    const { line, col } = lineCounter.linePos(problem.pos[0]);
    throw new ConfigError(`${file}:${line}:${col}: ${yamlProblem(problem.code, problem.message, text, problem.pos[0])}`);
  }
  let value: unknown;
  try {
    value = doc.toJS({ maxAliasCount: 100 });
  } catch (error) {
    throw new ConfigError(`${file}: ${error instanceof Error ? error.message : String(error)}`);
  }
  // An empty file (or one with comments only) is an empty config.
  if (value === null || value === undefined) return {};
  const validate = compileValidator(rules);
  if (!validate(value)) {
    const { path, message } = explain(validate.errors ?? [], value);
    throw new ConfigError(`${file}${position(doc, lineCounter, path)}: ${path.length > 0 ? `${keyPath(path)}: ` : ''}${message}`);
  }
  return value as ConfigFile;
}

function yamlProblem(code: string, message: string, text: string, start: number): string {
  if (code === 'DUPLICATE_KEY') return `duplicate key "${/^[^\s:,[\]{}]*/.exec(text.slice(start))?.[0] ?? ''}"`;
  if (code === 'MULTIPLE_DOCS') return 'a second YAML document (---): a config file holds one mapping';
  // `yaml` appends " at line N, column M" and a code frame; the position is already in front.
  return message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '');
}

type Validator = ((data: unknown) => boolean) & { errors?: ErrorObject[] | null };

function compileValidator(rules: readonly Rule[]): Validator {
  // ajv ships CommonJS; loaded (and the schema compiled) only when there is a config file.
  const require = createRequire(import.meta.url);
  const Ajv = require('ajv') as typeof import('ajv').default;
  const ajv = new Ajv({ allErrors: false, verbose: true, strict: true, allowUnionTypes: true });
  return ajv.compile(buildConfigSchema(rules)) as Validator;
}

type Path = readonly (string | number)[];


/** `rules.long-timeout.options.thresholdSeconds`, `ignore[2]`. */
export function keyPath(path: Path): string {
  return path.map((segment, index) => (typeof segment === 'number' ? `[${segment}]` : index === 0 ? segment : `.${segment}`)).join('');
}

function valueAt(root: unknown, path: Path): unknown {
  let value = root;
  for (const segment of path) value = (value as Record<string | number, unknown> | undefined)?.[segment];
  return value;
}

function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'a mapping';
  if (typeof value === 'string') return `the string ${JSON.stringify(value)}`;
  return `the ${typeof value} ${String(value)}`;
}

const TYPE_NAMES: Record<string, string> = { string: 'a string', number: 'a number', integer: 'a whole number', array: 'a list', object: 'a mapping', boolean: 'true or false' };

function orList(values: readonly unknown[]): string {
  const items = values.map(String);
  return joinWords(items, 'or');
}

/** One sentence for the first problem ajv found, at the most useful key. */
function explain(errors: readonly ErrorObject[], data: unknown): { path: Path; message: string } {
  // A rule setting or `extends` is one of two shapes: judge it by the shape that was written.
  const anyOf = errors.find((error) => error.keyword === 'anyOf');
  if (anyOf) {
    const path = pointerToPath(anyOf.instancePath);
    const value = valueAt(data, path);
    const isRule = path[0] === 'rules';
    // A problem inside the mapping or list that was written is the one to report.
    const inner = errors.find((error) => error !== anyOf && (error.instancePath.startsWith(`${anyOf.instancePath}/`) || (error.instancePath === anyOf.instancePath && error.keyword === 'additionalProperties')));
    if (inner && typeof value === 'object' && value !== null && Array.isArray(value) !== isRule) return explainOne(inner, data);
    const names = isRule ? [...SEVERITY_WORDS, 'warn'] : PRESET_NAMES;
    const suggestion = typeof value === 'string' ? closest(value, names) : undefined;
    const mean = suggestion ? ` (did you mean "${suggestion}"?)` : '';
    return {
      path,
      message: isRule
        ? `must be off, info, warning or error (or warn, 0, 1, 2 as in ESLint), or a mapping with severity and options; it is ${kindOf(value)}${mean}`
        : `must be a preset name (${orList(PRESET_NAMES)}) or a list of them; it is ${kindOf(value)}${mean}`,
    };
  }
  return explainOne(errors[0]!, data);
}

function explainOne(error: ErrorObject, data: unknown): { path: Path; message: string } {
  const path = pointerToPath(error.instancePath);
  const value = valueAt(data, path);
  const schema = (error.parentSchema ?? {}) as { minimum?: number; properties?: Record<string, unknown>; enum?: unknown[] };
  switch (error.keyword) {
    case 'additionalProperties': {
      const key = String((error.params as { additionalProperty: string }).additionalProperty);
      const known = Object.keys(schema.properties ?? {});
      const suggestion = closest(key, known);
      const mean = suggestion ? `; did you mean "${suggestion}"?` : '';
      if (path.length === 1 && path[0] === 'rules') return { path: [...path, key], message: `unknown rule "${key}"${mean}${mean ? '' : ' (admission-lint rules lists them)'}` };
      if (path[0] === 'rules' && path[2] === 'options') {
        return { path: [...path, key], message: `rule ${String(path[1])} has no option "${key}"${mean}${mean ? '' : known.length > 0 ? ` (its options: ${known.join(', ')})` : ' (it has no options)'}` };
      }
      if (path[0] === 'rules' && path.length === 2) return { path: [...path, key], message: `unknown key "${key}"${mean || ' (a rule takes severity and options)'}` };
      return { path: [...path, key], message: `unknown key "${key}"${mean || ` (the keys are ${orList(path.length === 0 ? CONFIG_KEYS : known)})`}` };
    }
    case 'type': {
      const expected = String((error.params as { type: string }).type);
      if (schema.minimum !== undefined && expected === 'number') return { path, message: `must be a number ≥ ${schema.minimum}; it is ${kindOf(value)}` };
      if (path.length === 0) return { path, message: `the config must be a mapping of ${orList(CONFIG_KEYS)}; it is ${kindOf(value)}` };
      if (path[0] === 'kubeVersion' && typeof value === 'number') return { path, message: `must be a string such as "1.30"; quote it (YAML reads 1.30 as the number 1.3)` };
      return { path, message: `must be ${TYPE_NAMES[expected] ?? expected}; it is ${kindOf(value)}` };
    }
    case 'minimum':
      return { path, message: `must be a number ≥ ${(error.params as { limit: number }).limit}; it is ${String(value)}` };
    case 'enum': {
      // Severities are allowed as numbers and as text (2 and "2"): each once in the message.
      const allowed = [...new Set((error.params as { allowedValues: unknown[] }).allowedValues.map(String))];
      const suggestion = typeof value === 'string' ? closest(value, allowed) : undefined;
      return { path, message: `must be ${orList(allowed)}; it is ${kindOf(value)}${suggestion ? ` (did you mean "${suggestion}"?)` : ''}` };
    }
    case 'pattern':
      if (path[0] === 'kubeVersion') return { path, message: `${JSON.stringify(value)} is not a Kubernetes version; write it as "1.35" (or "v1.35")` };
      if (path[0] === 'ignore') return { path, message: `${JSON.stringify(value)}: negated patterns (!) are not supported` };
      return { path, message: `must match ${String((error.params as { pattern: string }).pattern)}` };
    case 'minLength':
      return { path, message: 'must not be empty' };
    default:
      return { path, message: error.message ?? 'is not valid' };
  }
}

/** `:line:column` of the key (or value) at `path` in the config text, when it is there. */
function position(doc: Document, lineCounter: LineCounter, path: Path): string {
  let node: unknown = doc.contents;
  let offset: number | undefined = (doc.contents as Node | null)?.range?.[0];
  for (const segment of path) {
    if (isMap(node)) {
      const pair = node.items.find((item) => isScalar(item.key) && String(item.key.value) === String(segment));
      if (!pair) break;
      offset = (pair.key as Node).range?.[0] ?? offset;
      node = pair.value;
    } else if (isSeq(node) && typeof segment === 'number') {
      const item = node.items[segment] as Node | undefined;
      if (!item) break;
      offset = item.range?.[0] ?? offset;
      node = item;
    } else break;
  }
  if (offset === undefined) return '';
  const { line, col } = lineCounter.linePos(offset);
  return `:${line}:${col}`;
}

/** The setting with its severity in our words (the schema admitted only spellings severity.ts knows). */
function ruleEntries(setting: RuleSetting): { severity?: SeverityOverride; options?: Readonly<Record<string, OptionValue>> } {
  const written = typeof setting === 'object' ? setting : { severity: setting };
  const severity = normalizeSeverity(written.severity);
  return { ...(severity !== undefined ? { severity } : {}), ...(written.options !== undefined ? { options: written.options } : {}) };
}

/** Presets in the order of `extends`, then the file's own keys. */
export function resolveConfig(config: ConfigFile, file: string | null, baseDir: string, absolutePath?: string): ResolvedConfig {
  const presetNames: readonly PresetName[] = (config.extends === undefined ? ['recommended'] : typeof config.extends === 'string' ? [config.extends] : config.extends) as PresetName[];
  const severities = new Map<string, SeverityOverride>();
  const options = new Map<string, Record<string, OptionValue>>();
  let failOn = undefined as ResolvedConfig['failOn'];
  const apply = (rules: Readonly<Record<string, RuleSetting>>): void => {
    for (const [id, setting] of Object.entries(rules)) {
      const entry = ruleEntries(setting);
      if (entry.severity !== undefined) severities.set(id, entry.severity);
      if (entry.options !== undefined) options.set(id, { ...options.get(id), ...entry.options });
    }
  };
  for (const name of presetNames) {
    const preset = PRESETS[name];
    apply(preset.rules);
    if ('failOn' in preset) failOn = preset.failOn;
  }
  apply(config.rules ?? {});
  if (config.failOn !== undefined) failOn = config.failOn === 'warn' ? 'warning' : config.failOn;
  return {
    file,
    baseDir,
    ...(absolutePath !== undefined ? { path: absolutePath } : {}),
    severities,
    options,
    ignore: config.ignore ?? [],
    ...(config.kubeVersion !== undefined ? { kubeVersion: config.kubeVersion } : {}),
    ...(failOn !== undefined ? { failOn } : {}),
    ...(config.trustedNamespaceLabels !== undefined ? { trustedNamespaceLabels: config.trustedNamespaceLabels } : {}),
  };
}
