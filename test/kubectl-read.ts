/**
 * What kubectl reads from files, for differential tests: one `kubectl annotate --local -f … KEY=y
 * -o json` call for many files, with a sentinel file after each so that every object kubectl
 * prints is attributed to its file (kubectl prints the objects of its -f arguments in order, and
 * the objects of a file before the document it cannot decode).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const hasKubectl = spawnSync('kubectl', ['version', '--client'], { stdio: 'ignore' }).status === 0;

export interface KubectlRead {
  /** The objects kubectl decodes from the file, in order, Lists flattened, without the added annotation. */
  readonly objects: Record<string, unknown>[];
  /** kubectl's error for the file (it reads no document after it), if any. */
  readonly error: string | undefined;
}

const SENTINEL = 'admission-lint-kubectl-sentinel-';

/** Splits kubectl's output, a sequence of pretty-printed JSON objects, into values. */
function jsonValues(text: string): Record<string, unknown>[] {
  return text
    .split(/\n(?=\{\n)/)
    .filter((chunk) => chunk.trim() !== '')
    .map((chunk) => JSON.parse(chunk) as Record<string, unknown>);
}

/** Removes the annotation kubectl added (and the annotations map, when it made it). */
function withoutAnnotation(object: Record<string, unknown>): Record<string, unknown> {
  const metadata = object.metadata as Record<string, unknown> | undefined;
  const annotations = metadata?.annotations as Record<string, unknown> | undefined;
  if (annotations === undefined) return object;
  delete annotations["admission-lint.test/read"];
  if (Object.keys(annotations).length === 0) delete metadata!.annotations;
  if (Object.keys(metadata!).length === 0) delete object.metadata;
  return object;
}

/** What kubectl reads from each file, in batches of `batch` files per kubectl call. */
export function kubectlRead(files: readonly string[], batch = 400): Map<string, KubectlRead> {
  const dir = mkdtempSync(join(tmpdir(), 'admission-lint-kubectl-read-'));
  const out = new Map<string, KubectlRead>();
  for (let from = 0; from < files.length; from += batch) {
    const slice = files.slice(from, from + batch);
    const args = ['annotate', '--local', '--overwrite', 'admission-lint.test/read=y', '-o', 'json'];
    slice.forEach((file, index) => {
      const sentinel = join(dir, `s${from + index}.yaml`);
      writeFileSync(sentinel, `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: ${SENTINEL}${from + index}}\n`);
      args.push('-f', file, '-f', sentinel);
    });
    const result = spawnSync('kubectl', args, { encoding: 'utf8', maxBuffer: 1 << 30 });
    const errors = new Map<string, string>();
    for (const line of result.stderr.split('\n')) {
      const match = /^(?:error: )?(?:error parsing (.+?)|unable to decode "(.+?)"): (.*)$/.exec(line);
      if (match) errors.set((match[1] ?? match[2])!, match[3]!);
    }
    let current: Record<string, unknown>[] = [];
    let index = from;
    for (const value of jsonValues(result.stdout)) {
      const name = (value.metadata as { name?: unknown } | undefined)?.name;
      if (typeof name === 'string' && name.startsWith(SENTINEL)) {
        const file = files[index]!;
        out.set(file, { objects: current, error: errors.get(file) });
        current = [];
        index++;
        continue;
      }
      current.push(withoutAnnotation(value));
    }
    if (index !== from + slice.length) throw new Error(`kubectl printed ${index - from} sentinels of ${slice.length}: ${result.stderr.slice(0, 500)}`);
  }
  return out;
}
