/**
 * `--pod-security-config <file>`: the PodSecurity admission configuration a cluster runs with, read
 * from a file (a `PodSecurityConfiguration`, or the API server's `AdmissionConfiguration` that
 * holds or names one: ./config.ts). Errors are PodSecurityConfigError (a UserError) with the file,
 * line and column of the field, never a stack trace.
 */
import { LineCounter, type Document } from 'yaml';
import type { FieldPath } from '../field-path.js';
import { decode, readRegularFile } from '../load/sources.js';
import type { PodSecurityConfiguration } from '../model/pod-security.js';
import { MAX_REFERENCED_CONFIG_BYTES, PodSecurityConfigError, readPodSecurityConfiguration } from './config.js';
import { parseAsGoYaml } from '../parse/go-yaml-schema.js';

/** The start of the node at `path`, or of its closest written ancestor. */
function offsetOf(document: Document, path: FieldPath): number {
  for (let length = path.length; length >= 0; length--) {
    const node = document.getIn(path.slice(0, length), true) as { range?: [number, number, number] } | null | undefined;
    if (node?.range) return node.range[0];
  }
  return 0;
}

export function loadPodSecurityConfigFile(file: string): PodSecurityConfiguration {
  const fail = (message: string, at?: { line: number; column: number }): never => {
    throw new PodSecurityConfigError('unreadable', [{ file, path: [], message, ...at }]);
  };
  const read = readRegularFile(file, MAX_REFERENCED_CONFIG_BYTES);
  if (read.kind === 'error') fail(read.code === 'ENOENT' ? 'no such file' : `cannot read the file: ${read.code}`);
  if (read.kind === 'not-regular') fail('not a regular file');
  if (read.kind === 'too-large') fail(`larger than ${MAX_REFERENCED_CONFIG_BYTES / 1024} KiB: not a PodSecurity configuration`);
  if (read.kind !== 'ok') return fail('not read');
  const text = decode(read.bytes);
  if (text === null) throw new PodSecurityConfigError('invalid', [{ file, path: [], message: 'the file is not UTF-8 text' }]);
  const lineCounter = new LineCounter();
  // As the API server reads it: YAML 1.1 (sigs.k8s.io/yaml), the first document only.
  const document = parseAsGoYaml(text, { prettyErrors: false, lineCounter, logLevel: 'error' })[0];
  const position = (offset: number): { line: number; column: number } => {
    const { line, col } = lineCounter.linePos(offset);
    return { line, column: col };
  };
  const problem = document?.errors[0];
  if (problem !== undefined) {
    throw new PodSecurityConfigError('invalid', [{ file, path: [], message: problem.message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, ''), ...position(problem.pos[0]) }]);
  }
  let value: unknown = null;
  try {
    value = document?.toJS({ maxAliasCount: 100 }) ?? null;
  } catch (error) {
    throw new PodSecurityConfigError('invalid', [{ file, path: [], message: error instanceof Error ? error.message : String(error) }]);
  }
  if (value === null) throw new PodSecurityConfigError('invalid', [{ file, path: [], message: 'the file is empty: a PodSecurityConfiguration or AdmissionConfiguration was expected' }]);
  try {
    return readPodSecurityConfiguration(value, file);
  } catch (error) {
    // Problems in this file are placed in it; a file that a `path` names is placed already.
    if (!(error instanceof PodSecurityConfigError) || document === undefined) throw error;
    throw new PodSecurityConfigError(
      error.reason,
      error.problems.map((problem) => (problem.file === file && problem.line === undefined ? { ...problem, ...position(offsetOf(document, problem.path)) } : problem)),
    );
  }
}
