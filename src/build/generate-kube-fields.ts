/**
 * Writes src/kube/fields-data.ts: the fields each built-in kind can have, read from the Go types
 * of k8s.io/api and k8s.io/apimachinery (their `json` tags). Run by hand when the target version
 * moves, not by the build (CI has no checkout of them):
 *
 *   node dist/src/build/generate-kube-fields.js <k8s.io/api checkout> <k8s.io/apimachinery checkout> <tag>
 *
 * Both checkouts are read at `<tag>` (e.g. v0.35.0, which is Kubernetes 1.35.0) with `git show`.
 *
 * Only the fields are kept, with the type each holds: a struct of the same data (closed: the
 * API server decodes a built-in object into its Go type, so no other field survives, and CEL
 * reads the object converted back from it), a list or map of one, or '' for a value whose
 * inside is not known here (a scalar, or a type with its own JSON form such as
 * resource.Quantity, intstr.IntOrString, metav1.Time, runtime.RawExtension).
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';

/** The group versions read, as folders of k8s.io/api, with the API group each serves. */
const PACKAGES: readonly { readonly folder: string; readonly group: string; readonly version: string }[] = [
  { folder: 'core/v1', group: '', version: 'v1' },
  { folder: 'apps/v1', group: 'apps', version: 'v1' },
  { folder: 'batch/v1', group: 'batch', version: 'v1' },
  { folder: 'networking/v1', group: 'networking.k8s.io', version: 'v1' },
  { folder: 'rbac/v1', group: 'rbac.authorization.k8s.io', version: 'v1' },
  { folder: 'policy/v1', group: 'policy', version: 'v1' },
  { folder: 'autoscaling/v2', group: 'autoscaling', version: 'v2' },
  { folder: 'scheduling/v1', group: 'scheduling.k8s.io', version: 'v1' },
  { folder: 'storage/v1', group: 'storage.k8s.io', version: 'v1' },
];

/** How k8s.io/api imports other packages, by import name, to the type-name prefix used here. */
const IMPORTS: Readonly<Record<string, string>> = {
  metav1: 'meta.v1',
  corev1: 'core.v1',
  v1: 'core.v1',
  autoscalingv1: 'autoscaling.v1',
};

interface GoField {
  readonly json: string;
  readonly type: string;
  readonly inline: boolean;
  readonly omitempty: boolean;
  readonly omitzero: boolean;
}

type GoType = { readonly struct: readonly GoField[] } | { readonly alias: string };

function gitShow(checkout: string, tag: string, file: string): string {
  return execFileSync('git', ['-C', checkout, 'show', `${tag}:${file}`], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
}

function goFiles(checkout: string, tag: string, folder: string): string[] {
  const names = execFileSync('git', ['-C', checkout, 'ls-tree', '--name-only', `${tag}:${folder}`], { encoding: 'utf8' }).split('\n');
  return names.filter((name) => name.endsWith('.go') && !name.endsWith('_test.go') && !name.startsWith('zz_generated') && !name.startsWith('generated')).map((name) => gitShow(checkout, tag, `${folder}/${name}`));
}

/** The type declarations of Go sources (gofmt'ed): structs with their fields, and named types. */
function parseTypes(sources: readonly string[]): Map<string, GoType> {
  const types = new Map<string, GoType>();
  for (const source of sources) {
    const lines = source.split('\n');
    for (let i = 0; i < lines.length; i++) {
      const struct = /^type (\w+) struct \{\s*$/.exec(lines[i]!);
      if (struct) {
        const fields: GoField[] = [];
        let depth = 1;
        for (i++; i < lines.length && depth > 0; i++) {
          const line = lines[i]!.replace(/\/\/.*$/, '');
          if (/^\}/.test(lines[i]!)) {
            depth = 0;
            break;
          }
          const field = /^\t(?:(\w+)\s+)?(\*?[\w.[\]*]+)\s+`([^`]*)`/.exec(line);
          if (!field) continue;
          const tag = /json:"([^"]*)"/.exec(field[3]!)?.[1];
          if (tag === undefined || tag === '-') continue;
          const [name, ...options] = tag.split(',');
          fields.push({ json: name === '' ? (field[1] ?? '') : name!, type: field[2]!, inline: options.includes('inline'), omitempty: options.includes('omitempty'), omitzero: options.includes('omitzero') });
        }
        types.set(struct[1]!, { struct: fields });
        continue;
      }
      const alias = /^type (\w+) (\S.*)$/.exec(lines[i]!);
      if (alias && !alias[2]!.startsWith('struct') && !alias[2]!.startsWith('interface')) types.set(alias[1]!, { alias: alias[2]!.trim() });
    }
  }
  return types;
}

/**
 * Writes the data: for each struct reached from a kind, its fields and what each holds.
 * A reference is 'pkg.Type', '[]ref', '{}ref' (map values) or '' (not known here); a field's
 * starts with '!' when the object always has it (no omitempty or omitzero, or a struct held by value),
 * then '?' when it may be null there (a pointer, list or map written without omitempty).
 */
export function generate(apiCheckout: string, machineryCheckout: string, tag: string): string {
  const packages = new Map<string, Map<string, GoType>>();
  packages.set('meta.v1', parseTypes(goFiles(machineryCheckout, tag, 'pkg/apis/meta/v1')));
  packages.set('autoscaling.v1', parseTypes(goFiles(apiCheckout, tag, 'autoscaling/v1')));
  for (const { folder } of PACKAGES) packages.set(folder.replace('/', '.'), parseTypes(goFiles(apiCheckout, tag, folder)));

  const structs = new Map<string, Record<string, string>>();
  const resolve = (pkg: string, goType: string): string => {
    if (goType.startsWith('*')) return resolve(pkg, goType.slice(1));
    if (goType === '[]byte') return '';
    if (goType.startsWith('[]')) {
      const element = resolve(pkg, goType.slice(2));
      return `[]${element}`;
    }
    const map = /^map\[[^\]]+\](.+)$/.exec(goType);
    if (map) return `{}${resolve(pkg, map[1]!)}`;
    const qualified = /^(\w+)\.(\w+)$/.exec(goType);
    const [where, name] = qualified ? [IMPORTS[qualified[1]!], qualified[2]!] : [pkg, goType];
    if (where === undefined) return '';
    const declared = packages.get(where)?.get(name);
    if (declared === undefined) return '';
    if ('alias' in declared) return resolve(where, declared.alias);
    // meta.v1's Time, MicroTime, Duration and FieldsV1 have their own JSON forms.
    if (where === 'meta.v1' && ['Time', 'MicroTime', 'Duration', 'FieldsV1'].includes(name)) return '';
    const id = `${where}.${name}`;
    if (!structs.has(id)) {
      const fields: Record<string, string> = {};
      structs.set(id, fields);
      const add = (owner: string, decl: { struct: readonly GoField[] }): void => {
        for (const field of decl.struct) {
          if (field.inline) {
            const q = /^\*?(?:(\w+)\.)?(\w+)$/.exec(field.type);
            const innerPkg = q?.[1] ? IMPORTS[q[1]] : owner;
            const inner = innerPkg === undefined ? undefined : packages.get(innerPkg)?.get(q![2]!);
            if (inner === undefined || !('struct' in inner)) throw new Error(`inline ${field.type} of ${id} not found`);
            add(innerPkg!, inner);
          } else {
            // The converter (apimachinery runtime/converter.go structToUnstructured) always writes
            // a field without omitempty or omitzero (a nil pointer, map or list as null), and a
            // struct that is not a pointer even with omitempty (isEmpty is false for structs).
            const reference = resolve(owner, field.type);
            const valueStruct = !field.type.startsWith('*') && reference !== '' && !reference.startsWith('[]') && !reference.startsWith('{}');
            const always = !field.omitzero && (!field.omitempty || valueStruct);
            // Written even when nil (no omitempty): a pointer, list or map may then be null.
            const mayBeNull = always && /^(\*|\[\]|map\[)/.test(field.type) && field.type !== '[]byte';
            fields[field.json] = `${always ? '!' : ''}${mayBeNull ? '?' : ''}${reference}`;
          }
        }
      };
      add(where, declared);
    }
    return id;
  };

  const kinds: Record<string, string> = {};
  for (const { folder, group, version } of PACKAGES) {
    const pkg = folder.replace('/', '.');
    for (const [name, decl] of packages.get(pkg)!) {
      if (!('struct' in decl) || name.endsWith('List')) continue;
      const hasTypeMeta = decl.struct.some((f) => f.inline && f.type === 'metav1.TypeMeta');
      const hasObjectMeta = decl.struct.some((f) => f.json === 'metadata' && /ObjectMeta$/.test(f.type));
      if (!hasTypeMeta || !hasObjectMeta) continue;
      kinds[`${group === '' ? '' : `${group}/`}${version}/${name}`] = resolve(pkg, name);
    }
  }
  const sortedStructs = Object.fromEntries([...structs].sort(([a], [b]) => a.localeCompare(b)));
  const sortedKinds = Object.fromEntries(Object.entries(kinds).sort(([a], [b]) => a.localeCompare(b)));
  return [
    '// Generated by src/build/generate-kube-fields.ts from k8s.io/api and k8s.io/apimachinery',
    `// ${tag}: do not edit. The fields of built-in kinds, as src/kube/fields.ts reads them.`,
    `export const FIELDS_SOURCE = 'k8s.io/api and k8s.io/apimachinery ${tag}';`,
    '',
    '/** Each kind, as group/version/Kind (no group for the core group), to its struct. */',
    `export const KIND_STRUCTS: Readonly<Record<string, string>> = ${JSON.stringify(sortedKinds, null, 1)};`,
    '',
    "/** Each struct's fields: 'pkg.Type' (a struct here), '[]…' a list, '{}…' a map's values, '' not known here; '!' first: always there (no omitempty or omitzero, or a struct held by value), then '?': maybe null. */",
    `export const STRUCT_FIELDS: Readonly<Record<string, Readonly<Record<string, string>>>> = ${JSON.stringify(sortedStructs)};`,
    '',
  ].join('\n');
}

if (process.argv[1]?.endsWith('generate-kube-fields.js')) {
  const [api, machinery, tag] = process.argv.slice(2);
  if (api === undefined || machinery === undefined || tag === undefined) {
    process.stderr.write('usage: node dist/src/build/generate-kube-fields.js <k8s.io/api checkout> <k8s.io/apimachinery checkout> <tag>\n');
    process.exit(2);
  }
  writeFileSync(new URL('../../../src/kube/fields-data.ts', import.meta.url), generate(api, machinery, tag));
}
