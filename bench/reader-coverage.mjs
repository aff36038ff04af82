#!/usr/bin/env node
// How many workload documents the fast reader (src/parse/simple-yaml.ts, used by src/parse/read.ts)
// reads without the full `yaml` parse: every document of the fixtures and both real-world corpora
// (or of the folders given) whose kind, as `yaml` reads it, is one the Pod Security plugin
// evaluates. Also checks that each value read is `yaml`'s. Run after `npm run build`:
//
//   node bench/reader-coverage.mjs [folder...]      (VERBOSE=1 lists the documents declined)
//
// Prints "N of M workload documents read (P %)", and how many of them the quickest reader
// (src/parse/common-yaml.ts, tried first) reads; exits 1 on a disagreement with `yaml`.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseAllDocuments } from 'yaml';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const { documentLines } = await import(join(ROOT, 'dist/src/parse/prefilter.js'));
const { psaWorkloadOf } = await import(join(ROOT, 'dist/src/psa/workloads.js'));
const { readSimpleDocument: readDocument } = await import(join(ROOT, 'dist/src/parse/simple-yaml.js'));
const { readCommonDocument } = await import(join(ROOT, 'dist/src/parse/common-yaml.js'));
const PARSE_OPTIONS = { version: '1.1', uniqueKeys: true, prettyErrors: false, merge: true, logLevel: 'error' };

function yamlFiles(dir) {
  let entries;
  try {
    entries = readdirSync(dir);
  } catch {
    return [];
  }
  return entries.sort().flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return yamlFiles(path);
    return /\.ya?ml$/.test(name) ? [path] : [];
  });
}

const folders = process.argv.length > 2 ? process.argv.slice(2) : ['fixtures', 'test/corpus', '../shared/corpus/real-world'].map((f) => join(ROOT, f));
let workloads = 0;
let read = 0;
let common = 0;
let wrong = 0;
const declined = [];
for (const file of folders.flatMap(yamlFiles)) {
  const text = readFileSync(file, 'utf8');
  for (const lines of documentLines(text) ?? []) {
    const documentText = text.slice(lines.start, lines.end);
    const documents = parseAllDocuments(documentText, PARSE_OPTIONS);
    if (!Array.isArray(documents) || documents.length !== 1 || documents[0].errors.length > 0) continue;
    let value;
    try {
      value = documents[0].toJS({ maxAliasCount: 100 });
    } catch {
      continue; // an alias `yaml` cannot resolve: the document is not read
    }
    if (value === null || typeof value !== 'object' || psaWorkloadOf(value.kind, value.apiVersion) === undefined) continue;
    workloads++;
    const fast = readDocument(documentText);
    if (fast === undefined) {
      declined.push(`${file}: ${value.kind} ${value.metadata?.name ?? ''}`);
      continue;
    }
    read++;
    const quickest = readCommonDocument(documentText);
    if (quickest !== undefined) common++;
    if (JSON.stringify(fast) !== JSON.stringify(value) || (quickest !== undefined && JSON.stringify(quickest) !== JSON.stringify(value))) {
      wrong++;
      process.stdout.write(`DISAGREES with yaml: ${file}: ${value.kind} ${value.metadata?.name ?? ''}\n`);
    }
  }
}
const percent = (part) => (workloads === 0 ? 0 : ((100 * part) / workloads).toFixed(1));
process.stdout.write(`${read} of ${workloads} workload documents read (${percent(read)} %; ${common} by the quickest reader, ${percent(common)} %), ${wrong} disagreeing with yaml\n`);
if (process.env.VERBOSE) for (const line of declined) process.stdout.write(`  declined: ${line}\n`);
process.exit(wrong > 0 ? 1 : 0);
