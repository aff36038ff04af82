/**
 * Compares what the linter's parser reads from a file with what kubectl decodes from it
 * (test/kubectl-read.ts): the same objects (apiVersion, kind, name) in the same order, the same
 * values, a syntax error only where kubectl cannot decode the document either, and no document
 * kubectl stops at read silently.
 */
import { readFileSync } from 'node:fs';
import { isDeepStrictEqual } from 'node:util';
import { decode } from '../src/load/sources.js';
import { parseFile } from '../src/parse/yaml.js';
import type { KubectlRead } from './kubectl-read.js';

const identity = (object: unknown): string => {
  const value = object as { apiVersion?: unknown; kind?: unknown; metadata?: { name?: unknown } } | null;
  return `${String(value?.apiVersion)}/${String(value?.kind)}/${String(value?.metadata?.name)}`;
};

/** `annotations: null` becomes the added annotation in kubectl's output, and then nothing. */
function comparable(value: unknown): unknown {
  const copy = JSON.parse(JSON.stringify(value)) as { metadata?: Record<string, unknown> } | null;
  if (copy?.metadata && copy.metadata.annotations === null) delete copy.metadata.annotations;
  return copy;
}

/** The ways the linter reads `file` differently from kubectl; empty when it reads it the same. */
export function differences(file: string, kubectl: KubectlRead): string[] {
  const bytes = readFileSync(file);
  const parsed = parseFile({ path: file, text: decode(bytes) }, { prefilter: false });
  const values: unknown[] = [];
  // A key written twice is reported, and read as kubectl reads it (the last value).
  const problems = parsed.problems.filter((problem) => problem.severity === 'error' && problem.code !== 'DUPLICATE_KEY').map((problem) => `${problem.span.line}:${problem.span.column} ${problem.message}`);
  for (const manifest of parsed.manifests) {
    const read = manifest.toValue();
    if ('value' in read) values.push(read.value);
    else problems.push(`${read.problem.span.line}:${read.problem.span.column} ${read.problem.message}`);
  }
  const out: string[] = [];
  if (kubectl.error === undefined && problems.length > 0) out.push(`the linter reports ${problems.join('; ')}; kubectl reads the file`);
  // kubectl's YAML errors (not its type errors, which the schema checks report for the kinds the linter reads).
  const yamlError = kubectl.error !== undefined && /converting YAML to JSON|document separator/.test(kubectl.error);
  if (yamlError && problems.length === 0) out.push(`kubectl stops (${kubectl.error}); the linter reports nothing`);
  // Every object kubectl reads, the linter reads, in order, with the same value.
  let at = 0;
  for (const object of kubectl.objects) {
    const id = identity(object);
    while (at < values.length && identity(values[at]) !== id) at++;
    if (at >= values.length) {
      out.push(`kubectl reads ${id}; the linter does not`);
      break;
    }
    if (!isDeepStrictEqual(comparable(values[at]), object)) out.push(`${id}: the linter reads ${JSON.stringify(values[at])}; kubectl ${JSON.stringify(object)}`);
    at++;
  }
  // Where kubectl reads the whole file, the linter reads no object it does not.
  // (A List inside a List is an object kubectl reads nothing from, and the linter reads nothing in.)
  const objects = values.filter((value) => value !== null && typeof value === 'object' && !Array.isArray(value) && !Array.isArray((value as { items?: unknown }).items));
  if (kubectl.error === undefined && objects.length !== kubectl.objects.length) {
    out.push(`the linter reads ${objects.map(identity).join(', ')}; kubectl ${kubectl.objects.map(identity).join(', ')}`);
  }
  return out;
}
