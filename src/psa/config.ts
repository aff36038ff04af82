/**
 * The PodSecurity admission plugin's configuration, read as the API server reads it:
 *
 * - a `PodSecurityConfiguration` (pod-security.admission.config.k8s.io v1, v1beta1, v1alpha1: one
 *   schema and the same defaults in all three) on its own, or
 * - an `AdmissionConfiguration` (apiserver.config.k8s.io/v1, apiserver.k8s.io/v1alpha1) whose first
 *   plugin entry named `PodSecurity` holds it under `configuration`, or names a file under `path`
 *   (relative to the admission configuration's folder); an entry with neither, or no entry, means
 *   the defaults (k8s.io/apiserver pkg/admission/config.go ReadAdmissionConfiguration, ConfigFor).
 *
 * Both are decoded strictly (serializer.EnableStrict: unknown fields are errors, keys are case
 * sensitive), then defaulted (privileged and latest for every mode, v1/defaults.go) and validated
 * (admission/api/validation/validation.go). The API server refuses to start on any of these errors.
 */
import { isAbsolute, join, dirname } from 'node:path';
import { LineCounter, type Document } from 'yaml';
import { UserError } from '../errors.js';
import type { FieldPath } from '../field-path.js';
import { isRecord } from '../json.js';
import { decode, readRegularFile, STDIN_PATH } from '../load/sources.js';
import { closest } from '../text/closest.js';
import { goQuote } from '../validate/field-error.js';
import { dns1123LabelErrors, dns1123SubdomainErrors } from '../kube/names.js';
import type { PodSecurityConfiguration, PodSecurityExemptions } from '../model/pod-security.js';
import { LEVEL_ERROR, parsePsaLevel, parsePsaVersion, PSA_MODES, VERSION_ERROR, type PsaMode, type PsaPolicy } from './labels.js';
import { parseAsGoYaml } from '../parse/go-yaml-schema.js';

export const POD_SECURITY_CONFIGURATION_KIND = 'PodSecurityConfiguration';
export const POD_SECURITY_CONFIGURATION_API_VERSIONS = [
  'pod-security.admission.config.k8s.io/v1',
  'pod-security.admission.config.k8s.io/v1beta1',
  'pod-security.admission.config.k8s.io/v1alpha1',
] as const;
export const ADMISSION_CONFIGURATION_KIND = 'AdmissionConfiguration';
/** apiserver.k8s.io/v1beta1 has no AdmissionConfiguration; apiserver.config.k8s.io/v1alpha1 does not register it. */
export const ADMISSION_CONFIGURATION_API_VERSIONS = ['apiserver.config.k8s.io/v1', 'apiserver.k8s.io/v1alpha1'] as const;
/** The name the plugin registers (plugin/pkg/admission/security/podsecurity PluginName). */
export const POD_SECURITY_PLUGIN = 'PodSecurity';
/** A PodSecurityConfiguration is a few lines; this bounds what a `path` can make us read. */
export const MAX_REFERENCED_CONFIG_BYTES = 1024 * 1024;

export type { PodSecurityConfigOrigin, PodSecurityConfiguration, PodSecurityExemptions } from '../model/pod-security.js';

type Settings = Omit<PodSecurityConfiguration, 'origin'>;

/** What the plugin runs with when no configuration is given (load.LoadFromData(nil)). */
const BUILT_IN_SETTINGS: Settings = {
  defaults: {
    enforce: { level: 'privileged', version: 'latest' },
    audit: { level: 'privileged', version: 'latest' },
    warn: { level: 'privileged', version: 'latest' },
  },
  exemptions: { usernames: [], namespaces: [], runtimeClasses: [] },
};

export const DEFAULT_POD_SECURITY_CONFIGURATION: PodSecurityConfiguration = { ...BUILT_IN_SETTINGS, origin: { kind: 'built-in' } };

export interface PodSecurityConfigProblem {
  readonly file: string;
  /** From the root of the document in `file`; for an embedded configuration it starts at `plugins`. */
  readonly path: FieldPath;
  /** The field path in the API server's notation, then what is wrong. */
  readonly message: string;
  /** 1-based; set for files this module parses itself (a `path` reference), else the caller locates `path`. */
  readonly line?: number;
  readonly column?: number;
}

/**
 * The configuration is one the API server refuses to start with (`invalid`), or a file it names
 * cannot be read here (`unreadable`: often a path on the control-plane node that CI does not have).
 */
export class PodSecurityConfigError extends UserError {
  constructor(
    readonly reason: 'invalid' | 'unreadable',
    readonly problems: readonly PodSecurityConfigProblem[],
  ) {
    super(
      problems.map((problem) => `${problem.file}${problem.line === undefined ? '' : `:${problem.line}:${problem.column}`}: ${problem.message}`).join('; '),
      reason === 'invalid' ? 'the API server does not start with this PodSecurity configuration' : undefined,
    );
  }
}

/** Decoding problems before they are given a file (and a position). */
interface Problem {
  readonly path: FieldPath;
  readonly message: string;
}

/** Keys that would break the one-line message (an unknown key can be anything). */
const UNPRINTABLE = /[\u0000-\u001f\u007f\u0085\u2028\u2029]/;

/** field.Path.String(): names joined with dots, indexes in brackets. */
function dotted(path: FieldPath): string {
  let out = '';
  for (const segment of path) {
    if (typeof segment === 'number') out += `[${segment}]`;
    else if (UNPRINTABLE.test(segment)) out += `[${goQuote(segment)}]`;
    else out += out === '' ? segment : `.${segment}`;
  }
  return out;
}

function quoteValue(value: unknown): string {
  if (typeof value === 'string') return goQuote(value);
  return value === undefined ? 'null' : JSON.stringify(value);
}

function typeName(value: unknown): string {
  if (Array.isArray(value)) return 'a list';
  if (value === null || value === undefined) return 'null';
  if (isRecord(value)) return 'a mapping';
  return `the ${typeof value} ${quoteValue(value)}`;
}

class Collector {
  readonly problems: Problem[] = [];
  add(path: FieldPath, message: string): void {
    this.problems.push({ path, message: path.length === 0 ? message : `${dotted(path)}: ${message}` });
  }
  wrongType(path: FieldPath, value: unknown, expected: string): void {
    this.add(path, `must be ${expected}, not ${typeName(value)}`);
  }
  /** Strict decoding: every key must be a field of the type. */
  unknownFields(object: Record<string, unknown>, path: FieldPath, known: readonly string[]): void {
    for (const key of Object.keys(object)) {
      if (known.includes(key)) continue;
      const guess = closest(key, known);
      this.add([...path, key], `unknown field${guess ? ` (did you mean "${guess}"?)` : ''}`);
    }
  }
}

/** A string field: null and absent decode as "" (Go's zero value). */
function stringField(object: Record<string, unknown>, key: string, path: FieldPath, problems: Collector): string {
  const value = object[key];
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value;
  problems.wrongType([...path, key], value, 'a string');
  return '';
}

/** A []string field: null and absent decode as empty, a null item as "". */
function stringListField(object: Record<string, unknown>, key: string, path: FieldPath, problems: Collector): string[] {
  const value = object[key];
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) {
    problems.wrongType([...path, key], value, 'a list of strings');
    return [];
  }
  return value.map((item, index) => {
    if (item === null) return '';
    if (typeof item === 'string') return item;
    problems.wrongType([...path, key, index], item, 'a string');
    return '';
  });
}

/** A struct field: null and absent decode as the zero value. */
function mappingField(object: Record<string, unknown>, key: string, path: FieldPath, problems: Collector): Record<string, unknown> {
  const value = object[key];
  if (value === undefined || value === null) return {};
  if (isRecord(value)) return value;
  problems.wrongType([...path, key], value, 'a mapping');
  return {};
}

/** apiVersion and kind, which decide the type; false when the object cannot be decoded as `kind`. */
function checkTypeMeta(object: Record<string, unknown>, path: FieldPath, kind: string, apiVersions: readonly string[], problems: Collector): boolean {
  const before = problems.problems.length;
  const apiVersion = object.apiVersion;
  if (apiVersion === undefined || apiVersion === null || apiVersion === '') problems.add([...path, 'apiVersion'], `Required value: a ${kind} names its apiVersion (${apiVersions[0]})`);
  else if (!apiVersions.includes(apiVersion as string)) problems.add([...path, 'apiVersion'], `Unsupported value: ${quoteValue(apiVersion)}: supported values for ${kind}: ${apiVersions.map((v) => `"${v}"`).join(', ')}`);
  if (object.kind === undefined || object.kind === null || object.kind === '') problems.add([...path, 'kind'], `Required value: must be "${kind}"`);
  else if (object.kind !== kind) problems.add([...path, 'kind'], `Unsupported value: ${quoteValue(object.kind)}: must be "${kind}"`);
  return problems.problems.length === before;
}

/** validateNamespaces, validateRuntimeClasses, validateUsernames: each item valid, no duplicates. */
function validateExemptions(list: readonly string[], path: FieldPath, check: (item: string) => string[], problems: Collector): void {
  const seen = new Set<string>();
  list.forEach((item, index) => {
    const errors = check(item);
    if (errors.length > 0) problems.add([...path, index], `Invalid value: ${quoteValue(item)}: ${errors.join(', ')}`);
    else if (seen.has(item)) problems.add([...path, index], `Duplicate value: ${quoteValue(item)}`);
    else seen.add(item);
  });
}

const DEFAULTS_FIELDS = PSA_MODES.flatMap((mode) => [mode, `${mode}-version`]);
const EXEMPTIONS_FIELDS = ['usernames', 'namespaces', 'runtimeClasses'] as const;

/** Decodes, defaults and validates a PodSecurityConfiguration at `path` of a document. */
function decodePodSecurityConfiguration(value: unknown, path: FieldPath, problems: Collector): Settings & { apiVersion: string } {
  if (!isRecord(value)) {
    problems.wrongType(path, value, `a ${POD_SECURITY_CONFIGURATION_KIND} mapping`);
    return { ...BUILT_IN_SETTINGS, apiVersion: '' };
  }
  if (!checkTypeMeta(value, path, POD_SECURITY_CONFIGURATION_KIND, POD_SECURITY_CONFIGURATION_API_VERSIONS, problems)) {
    return { ...BUILT_IN_SETTINGS, apiVersion: '' };
  }
  const before = problems.problems.length;
  problems.unknownFields(value, path, ['apiVersion', 'kind', 'defaults', 'exemptions']);
  const defaultsPath = [...path, 'defaults'];
  const writtenDefaults = mappingField(value, 'defaults', path, problems);
  problems.unknownFields(writtenDefaults, defaultsPath, DEFAULTS_FIELDS);
  const texts = new Map(DEFAULTS_FIELDS.map((field) => [field, stringField(writtenDefaults, field, defaultsPath, problems)]));
  const exemptionsPath = [...path, 'exemptions'];
  const writtenExemptions = mappingField(value, 'exemptions', path, problems);
  problems.unknownFields(writtenExemptions, exemptionsPath, EXEMPTIONS_FIELDS);
  const exemptions: PodSecurityExemptions = {
    usernames: stringListField(writtenExemptions, 'usernames', exemptionsPath, problems),
    namespaces: stringListField(writtenExemptions, 'namespaces', exemptionsPath, problems),
    runtimeClasses: stringListField(writtenExemptions, 'runtimeClasses', exemptionsPath, problems),
  };
  const apiVersion = value.apiVersion as string;
  // The API server stops at a decoding error: nothing is defaulted or validated.
  if (problems.problems.length > before) return { ...BUILT_IN_SETTINGS, apiVersion };

  // SetDefaults_PodSecurityDefaults, then ValidatePodSecurityConfiguration in its order
  // (enforce, warn, audit). The API server reports invalid defaults from ToPolicy first and
  // validates the exemptions only once they pass; all are reported here at once.
  const defaults = {} as Record<PsaMode, PsaPolicy[PsaMode]>;
  for (const mode of ['enforce', 'warn', 'audit'] as const) {
    const levelText = texts.get(mode) || 'privileged';
    const versionText = texts.get(`${mode}-version`) || 'latest';
    const level = parsePsaLevel(levelText);
    const version = parsePsaVersion(versionText);
    if (!level.valid) problems.add([...defaultsPath, mode], `Invalid value: ${quoteValue(levelText)}: ${LEVEL_ERROR}`);
    if (!version.valid) problems.add([...defaultsPath, `${mode}-version`], `Invalid value: ${quoteValue(versionText)}: ${VERSION_ERROR}`);
    defaults[mode] = { level: level.level, version: version.version };
  }
  validateExemptions(exemptions.namespaces, [...exemptionsPath, 'namespaces'], dns1123LabelErrors, problems);
  validateExemptions(exemptions.runtimeClasses, [...exemptionsPath, 'runtimeClasses'], dns1123SubdomainErrors, problems);
  validateExemptions(exemptions.usernames, [...exemptionsPath, 'usernames'], (name) => (name === '' ? ['username must not be empty'] : []), problems);
  return { defaults: { enforce: defaults.enforce, audit: defaults.audit, warn: defaults.warn }, exemptions, apiVersion };
}

interface PluginEntry {
  readonly name: string;
  readonly path: string;
  readonly configuration: unknown;
}

/** AdmissionConfiguration's plugins, strictly decoded; undefined when the object does not decode. */
function decodeAdmissionPlugins(value: Record<string, unknown>, problems: Collector): PluginEntry[] | undefined {
  if (!checkTypeMeta(value, [], ADMISSION_CONFIGURATION_KIND, ADMISSION_CONFIGURATION_API_VERSIONS, problems)) return undefined;
  problems.unknownFields(value, [], ['apiVersion', 'kind', 'plugins']);
  const plugins = value.plugins;
  if (plugins !== undefined && plugins !== null && !Array.isArray(plugins)) problems.wrongType(['plugins'], plugins, 'a list');
  const entries = (Array.isArray(plugins) ? plugins : []).map((raw: unknown, index): PluginEntry => {
    const path = ['plugins', index];
    if (raw !== null && !isRecord(raw)) problems.wrongType(path, raw, 'a mapping');
    const entry = isRecord(raw) ? raw : {};
    problems.unknownFields(entry, path, ['name', 'path', 'configuration']);
    return { name: stringField(entry, 'name', path, problems), path: stringField(entry, 'path', path, problems), configuration: entry.configuration ?? null };
  });
  return problems.problems.length === 0 ? entries : undefined;
}

function fail(reason: 'invalid' | 'unreadable', file: string, problems: readonly Problem[], locate?: (path: FieldPath) => { line: number; column: number }): never {
  throw new PodSecurityConfigError(
    reason,
    problems.map((problem) => ({ file, ...problem, ...locate?.(problem.path) })),
  );
}

/**
 * The PodSecurity configuration in `value`, a decoded `PodSecurityConfiguration` or
 * `AdmissionConfiguration` from `file`. A `path` reference is read from the file system (a
 * regular file of at most MAX_REFERENCED_CONFIG_BYTES). Throws PodSecurityConfigError.
 */
export function readPodSecurityConfiguration(value: unknown, file: string): PodSecurityConfiguration {
  const problems = new Collector();
  const kind = isRecord(value) ? value.kind : undefined;
  if (kind === ADMISSION_CONFIGURATION_KIND) return readAdmissionConfiguration(value as Record<string, unknown>, file);
  if (isRecord(value) && kind !== POD_SECURITY_CONFIGURATION_KIND) {
    problems.add(['kind'], kind === undefined || kind === null || kind === '' ? `Required value: must be "${ADMISSION_CONFIGURATION_KIND}" or "${POD_SECURITY_CONFIGURATION_KIND}"` : `Unsupported value: ${quoteValue(kind)}: must be "${ADMISSION_CONFIGURATION_KIND}" or "${POD_SECURITY_CONFIGURATION_KIND}"`);
    fail('invalid', file, problems.problems);
  }
  const { apiVersion, ...config } = decodePodSecurityConfiguration(value, [], problems);
  if (problems.problems.length > 0) fail('invalid', file, problems.problems);
  return { ...config, origin: { kind: 'standalone', file, apiVersion } };
}

function readAdmissionConfiguration(value: Record<string, unknown>, file: string): PodSecurityConfiguration {
  const problems = new Collector();
  const plugins = decodeAdmissionPlugins(value, problems);
  if (plugins === undefined) fail('invalid', file, problems.problems);
  // ConfigFor: the first entry with the plugin's name; later ones are never read.
  const index = plugins.findIndex((entry) => entry.name === POD_SECURITY_PLUGIN);
  const entry = plugins[index];
  const origin = { kind: 'admission-configuration', file } as const;
  if (entry === undefined) return { ...BUILT_IN_SETTINGS, origin: { ...origin, plugin: undefined, via: 'none' } };
  if (entry.configuration !== null) {
    const { apiVersion, ...config } = decodePodSecurityConfiguration(entry.configuration, ['plugins', index, 'configuration'], problems);
    if (problems.problems.length > 0) fail('invalid', file, problems.problems);
    return { ...config, origin: { ...origin, plugin: index, via: 'configuration', apiVersion } };
  }
  if (entry.path === '') return { ...BUILT_IN_SETTINGS, origin: { ...origin, plugin: index, via: 'none' } };
  const referencedFile = referencedPath(entry.path, file, index);
  const read = readReferencedFile(referencedFile, file, index);
  if (read === undefined) return { ...BUILT_IN_SETTINGS, origin: { ...origin, plugin: index, via: 'path', referencedFile } };
  const { apiVersion, ...config } = decodePodSecurityConfiguration(read.value, [], problems);
  if (problems.problems.length > 0) fail('invalid', referencedFile, problems.problems, read.locate);
  return { ...config, origin: { ...origin, plugin: index, via: 'path', referencedFile, apiVersion } };
}

/** makeAbs: an absolute path as is, a relative one joined to the admission configuration's folder. */
function referencedPath(path: string, file: string, index: number): string {
  if (isAbsolute(path)) return path;
  if (file === STDIN_PATH) {
    fail('unreadable', file, [{ path: ['plugins', index, 'path'], message: `plugins[${index}].path: ${goQuote(path)} is relative to the admission configuration's folder, and standard input has none` }]);
  }
  return join(dirname(file), path);
}

/**
 * The referenced file's first YAML document as plain data, and where a field path of it is. An
 * empty file (no bytes) is undefined: the plugin then runs with its defaults (load.LoadFromData).
 */
function readReferencedFile(referencedFile: string, file: string, index: number): { value: unknown; locate: (path: FieldPath) => { line: number; column: number } } | undefined {
  const at: FieldPath = ['plugins', index, 'path'];
  const unreadable = (why: string): never => fail('unreadable', file, [{ path: at, message: `plugins[${index}].path: cannot read ${goQuote(referencedFile)}: ${why}` }]);
  const read = readRegularFile(referencedFile, MAX_REFERENCED_CONFIG_BYTES);
  if (read.kind === 'error') unreadable(read.code);
  if (read.kind === 'not-regular') unreadable('not a regular file');
  if (read.kind === 'too-large') unreadable(`larger than ${MAX_REFERENCED_CONFIG_BYTES / 1024} KiB`);
  if (read.kind !== 'ok') return unreadable('not read');
  if (read.bytes.length === 0) return undefined;
  const text = decode(read.bytes);
  if (text === null) return fail('invalid', referencedFile, [{ path: [], message: 'the file is not UTF-8 text' }]);

  const lineCounter = new LineCounter();
  // sigs.k8s.io/yaml reads YAML 1.1 and only the stream's first document.
  const document = parseAsGoYaml(text, { prettyErrors: false, lineCounter, logLevel: 'error' })[0];
  const position = (offset: number): { line: number; column: number } => {
    const { line, col } = lineCounter.linePos(offset);
    return { line, column: col };
  };
  const problem = document?.errors[0];
  if (problem) fail('invalid', referencedFile, [{ path: [], message: problem.message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '') }], () => position(problem.pos[0]));
  let value: unknown = null;
  try {
    value = document?.toJS({ maxAliasCount: 100 }) ?? null;
  } catch (error) {
    fail('invalid', referencedFile, [{ path: [], message: error instanceof Error ? error.message : String(error) }]);
  }
  return { value, locate: (path) => position(offsetOf(document, path)) };
}

/** The start of the node at `path`, or of its closest written ancestor. */
function offsetOf(document: Document | undefined, path: FieldPath): number {
  for (let length = path.length; document && length >= 0; length--) {
    const node = document.getIn(path.slice(0, length), true) as { range?: [number, number, number] } | null | undefined;
    if (node?.range) return node.range[0];
  }
  return 0;
}
