/**
 * Build step (`npm run build`, last): bundles the compiled CLI (dist/src/cli/main.js, with the
 * precompiled validators) and every package it uses into one CommonJS file,
 * standalone/admission-lint.cjs, and writes the V8 code cache for it,
 * dist/admission-lint.code-cache.
 *
 * The one file is everything admission-lint needs at run time, the rule docs included:
 * - `node standalone/admission-lint.cjs` runs it with no node_modules anywhere (it is attached to
 *   releases as admission-lint.cjs);
 * - the GitHub Action (action.yml) and the pre-commit hook (.pre-commit-hooks.yaml) run the copy
 *   committed in the repository, so neither installs anything: the file is committed, and
 *   test/package-standalone-committed.test.ts fails when the committed copy is not what the
 *   committed sources build to (the output is deterministic: same sources, same bytes, wherever
 *   the checkout lies);
 * - bin/admission-lint.js (the npm package's bin, and a checkout's) runs it with the code cache,
 *   when there is one: on Node 20 (no module compile cache before Node 22) a cold start spent most
 *   of its time compiling the CLI's code.
 * esbuild is a dev dependency only; nothing of it ships, and the package has no dependencies.
 *
 * The cache is made by running the bundle on a small built-in manifest (WARM_UP), so that the
 * functions a typical lint calls are compiled and cached. The cache starts with the bundle's
 * build id (a digest of the bundle, also written at its end), so a cache of another build is never
 * used; V8 itself rejects a cache of another V8 version or other flags.
 */
import { createHash } from 'node:crypto';
import { chmodSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire, isBuiltin } from 'node:module';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Plugin } from 'esbuild';

/** The project root, from this step compiled (dist/src/build/) or from its source (tests). */
const ROOT = fileURLToPath(new URL(/\/dist\/src\/build\/[^/]*$/.test(import.meta.url) ? '../../../' : '../../', import.meta.url));
const ENTRY = join(ROOT, 'dist', 'src', 'cli', 'main.js');
/** The project's own compiled code: the only importers whose imports the plugins below redirect. */
const OWN_CODE = /[\\/]dist[\\/](src|rules)[\\/]/;

interface Loader {
  loadBundle(options?: { cache?: boolean }): { exports: Record<string, unknown>; script: import('node:vm').Script; cacheUsed: boolean };
  BUNDLE: string;
  CACHE: string;
  ID_BYTES: number;
}

function loader(): Loader {
  return createRequire(import.meta.url)(join(ROOT, 'bin', 'admission-lint.js')) as Loader;
}

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * `export { a, b, … } from '<builtin>'` for every export of a builtin but `except`: the rest of a
 * builtin that a plugin's module replaces in part. Named, not `export *`, which would copy every
 * property of the builtin at start-up; esbuild drops the names nobody imports, so the bundle does
 * not depend on the builtin's list of exports in the Node.js that builds it.
 */
async function reExportRest(builtin: string, except: readonly string[]): Promise<string> {
  const names = Object.keys((await import(builtin)) as object).filter((name) => name !== 'default' && !except.includes(name) && /^[A-Za-z_$][\w$]*$/.test(name));
  return `export { ${names.join(', ')} } from '${builtin}';`;
}

/**
 * Builtins that are required at a module's top level but that a lint seldom or never uses are
 * loaded on first use instead, which keeps them out of the start-up:
 * - commander requires node:child_process for executable subcommands (admission-lint has none);
 * - ca-bundle needs node:crypto only for a caBundle with PEM certificates in it, sarif only to
 *   hash; client-config-url needs node:net only for a webhook with a url; probe needs node:tls
 *   only to connect (about 5 ms to load, with node:net; the public roots that ca-bundle reads of
 *   it are required on first use, src/kube/public-roots.ts).
 * Each function (or class) the builtin exports becomes a proxy that loads the builtin when it is
 * called, constructed or read from. A name that is not a function is not exported, so an import
 * of one fails the build instead of going wrong at run time. The proxies are marked pure, so only
 * the names an ES module imports are in the bundle: the list of a builtin's exports differs between
 * Node versions, the bundle must not. (commander, CommonJS, takes every function of
 * node:child_process, a list that has not changed since Node 14.)
 */
const LAZY_BUILTINS: readonly { builtin: string; importer: RegExp }[] = [
  { builtin: 'node:child_process', importer: /[\\/]node_modules[\\/]commander[\\/]/ },
  { builtin: 'node:crypto', importer: OWN_CODE },
  { builtin: 'node:net', importer: OWN_CODE },
  { builtin: 'node:tls', importer: OWN_CODE },
];

const lazyBuiltins: Plugin = {
  name: 'lazy-builtins',
  setup(build) {
    for (const { builtin, importer } of LAZY_BUILTINS) {
      build.onResolve({ filter: new RegExp(`^${escapeRegExp(builtin)}$`) }, (args) => (importer.test(args.importer) ? { path: builtin, namespace: 'lazy-builtin' } : undefined));
    }
    build.onLoad({ filter: /.*/, namespace: 'lazy-builtin' }, async (args) => {
      const module = (await import(args.path)) as Record<string, unknown>;
      const names = Object.keys(module).filter((name) => name !== 'default' && typeof module[name] === 'function' && /^[A-Za-z_$][\w$]*$/.test(name));
      const lines = [
        `let m;`,
        `const load = () => (m ??= require(${JSON.stringify(args.path)}));`,
        // A function target, so that calls, construction and instanceof work through the proxy.
        `const lazy = (name) => new Proxy(function () {}, {`,
        `  apply: (_, self, args) => Reflect.apply(load()[name], self, args),`,
        `  construct: (_, args) => Reflect.construct(load()[name], args),`,
        `  get: (_, key) => (key === 'prototype' ? load()[name].prototype : Reflect.get(load()[name], key)),`,
        `});`,
        ...names.map((name) => `export const ${name} = /* @__PURE__ */ lazy(${JSON.stringify(name)});`),
      ];
      return { contents: `${lines.join('\n')}\n`, loader: 'js' };
    });
  },
};

/**
 * chalk detects the terminal's colour support when it is imported (node:tty, node:os, the
 * environment) for its default instances. admission-lint decides about colour itself
 * (src/cli/main.ts useColor) and always passes the level (`new Chalk({ level })`), so the
 * detection is replaced by "none", as chalk's browser build does without a navigator.
 */
const noColorDetection: Plugin = {
  name: 'no-color-detection',
  setup(build) {
    build.onResolve({ filter: /^#supports-color$/ }, (args) => (/[\\/]node_modules[\\/]chalk[\\/]/.test(args.importer) ? { path: 'supports-color', namespace: 'no-color-detection' } : undefined));
    build.onLoad({ filter: /.*/, namespace: 'no-color-detection' }, () => ({ contents: 'export default { stdout: false, stderr: false };\n', loader: 'js' }));
  },
};

/**
 * yaml reads two debug switches from the environment, LOG_TOKENS for every token its parser
 * takes and LOG_STREAM for every document it composes. `process.env` is not a plain object: each
 * read asks the operating system's environment, and on a repository of admission objects those
 * reads were a tenth of the run. yaml's `process` in the bundle is a copy whose `env` holds the
 * two switches as they were at start-up (they still work); the build fails if yaml reads anything
 * else of `process` (YAML_PROCESS_USES).
 */
const YAML_PROCESS_USES: readonly string[] = ['env.LOG_TOKENS', 'env.LOG_STREAM', 'emitWarning'];

/** What yaml's compiled files read of `process`: `env.NAME` or a property. */
export function yamlProcessUses(): Set<string> {
  const uses = new Set<string>();
  for (const file of jsFiles(join(dirname(createRequire(import.meta.url).resolve('yaml')), '.'))) {
    const text = readFileSync(file, 'utf8');
    if (!/require\('(node:)?process'\)/.test(text)) continue;
    for (const use of text.matchAll(/\bnode_process\.(env\.\w+|\w+)/g)) uses.add(use[1]!);
  }
  return uses;
}

const yamlProcess: Plugin = {
  name: 'yaml-process',
  setup(build) {
    build.onResolve({ filter: /^(node:)?process$/ }, (args) => (/[\\/]node_modules[\\/]yaml[\\/]/.test(args.importer) ? { path: 'process', namespace: 'yaml-process' } : undefined));
    build.onLoad({ filter: /.*/, namespace: 'yaml-process' }, () => {
      const unknown = [...yamlProcessUses()].filter((use) => !YAML_PROCESS_USES.includes(use));
      if (unknown.length > 0) throw new Error(`yaml reads process.${unknown.join(', process.')}: add it to YAML_PROCESS_USES in src/build/bundle.ts`);
      const switches = YAML_PROCESS_USES.filter((use) => use.startsWith('env.')).map((use) => use.slice('env.'.length));
      const lines = [
        `import process from 'node:process';`,
        `export const env = { ${switches.map((name) => `${name}: process.env.${name}`).join(', ')} };`,
        `export const emitWarning = (...args) => process.emitWarning(...args);`,
      ];
      return { contents: `${lines.join('\n')}\n`, loader: 'js' };
    });
  },
};

/**
 * Packages the sources load with `createRequire(import.meta.url)(name)`, synchronously and on
 * demand (ajv for a config file, the CEL library where a caller cannot await). esbuild does not
 * follow such a require, so the bundle's `node:module` (for the project's own code) is a copy
 * whose createRequire serves these from the bundle, builtins from Node, and refuses anything
 * else: the bundle never looks for a package in a node_modules folder near it. The build fails
 * when the compiled sources require a package that is not listed here (requiredPackages).
 */
export const BUNDLED_REQUIRES = ['ajv', '@marcbachmann/cel-js'] as const;

const bundledRequire: Plugin = {
  name: 'bundled-require',
  setup(build) {
    build.onResolve({ filter: /^(node:)?module$/ }, (args) => (OWN_CODE.test(args.importer) ? { path: 'module', namespace: 'bundled-require' } : undefined));
    build.onLoad({ filter: /.*/, namespace: 'bundled-require' }, async () => {
      const lines = [
        `import { createRequire as nodeCreateRequire, isBuiltin } from 'node:module';`,
        await reExportRest('node:module', ['createRequire']),
        `const BUNDLED = {`,
        ...BUNDLED_REQUIRES.map((name) => `  ${JSON.stringify(name)}: () => require(${JSON.stringify(name)}),`),
        `};`,
        `export function createRequire(from) {`,
        `  const nodeRequire = nodeCreateRequire(from);`,
        `  return Object.assign((id) => {`,
        `    if (Object.hasOwn(BUNDLED, id)) return BUNDLED[id]();`,
        `    if (isBuiltin(id)) return nodeRequire(id);`,
        `    throw Object.assign(new Error(\`admission-lint: "\${id}" is not bundled (src/build/bundle.ts BUNDLED_REQUIRES)\`), { code: 'MODULE_NOT_FOUND' });`,
        `  }, { resolve: nodeRequire.resolve, cache: nodeRequire.cache });`,
        `}`,
      ];
      return { contents: `${lines.join('\n')}\n`, loader: 'js', resolveDir: ROOT };
    });
  },
};

/**
 * The files the CLI reads from its project root (src/cli/package-info.ts PROJECT_ROOT): the
 * version from package.json, and the rule docs that `explain` prints and SARIF quotes. They are
 * embedded: the bundle's `node:fs` (for the project's own code) serves them, everything else is
 * Node's fs.
 *
 * The bundle's project root is a folder inside the bundle file itself, `<bundle file>/`: the
 * bundle's import.meta.url is `<bundle file>/dist/src/cli/main.js` (as if the compiled modules lay
 * in a project inside it; see importMetaUrl), so PROJECT_ROOT is `<bundle file>/`. No real file
 * can lie under a regular file, so an embedded path never hides a file on disk, and a path under
 * that root that is not embedded is missing (ENOENT) as it would be in a project.
 */
export function embeddedFiles(): Record<string, string> {
  const { name, version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { name: string; version: string };
  // Only what the CLI reads: a change to the scripts does not change the bundle.
  const files: Record<string, string> = { 'package.json': `${JSON.stringify({ name, version }, null, 2)}\n` };
  for (const doc of readdirSync(join(ROOT, 'rules')).filter((file) => file.endsWith('.md')).sort()) {
    files[`rules/${doc}`] = readFileSync(join(ROOT, 'rules', doc), 'utf8');
  }
  return files;
}

/** A JavaScript string literal in ASCII (the bundle is ASCII, see asciiOnly). */
const asciiLiteral = (text: string): string => JSON.stringify(text).replace(/[^\x00-\x7f]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);

const embeddedFs: Plugin = {
  name: 'embedded-fs',
  setup(build) {
    build.onResolve({ filter: /^(node:)?fs$/ }, (args) => (OWN_CODE.test(args.importer) ? { path: 'fs', namespace: 'embedded-fs' } : undefined));
    build.onLoad({ filter: /.*/, namespace: 'embedded-fs' }, async () => {
      const files = embeddedFiles();
      const lines = [
        `import { existsSync as nodeExistsSync, readFileSync as nodeReadFileSync } from 'node:fs';`,
        `import { resolve, sep } from 'node:path';`,
        `import { fileURLToPath } from 'node:url';`,
        `import { EMBEDDED_ROOT } from 'admission-lint:import-meta-url';`,
        await reExportRest('node:fs', ['existsSync', 'readFileSync']),
        // A function per file: V8 parses and compiles a text only when that file is read (every
        // run reads package.json; the code cache would otherwise hold every doc).
        `const files = {`,
        ...Object.entries(files).map(([path, text]) => `  ${JSON.stringify(path)}: () => ${asciiLiteral(text)},`),
        `};`,
        // undefined: not under the embedded root (a real file); null: under it but not embedded.
        `function embedded(path) {`,
        `  const name = typeof path === 'string' ? path : path instanceof URL ? fileURLToPath(path) : undefined;`,
        `  if (name === undefined) return undefined;`,
        `  const absolute = resolve(name);`,
        `  if (!absolute.startsWith(EMBEDDED_ROOT)) return undefined;`,
        `  const key = absolute.slice(EMBEDDED_ROOT.length).split(sep).join('/');`,
        `  return Object.hasOwn(files, key) ? files[key]() : null;`,
        `}`,
        `function missing(path) {`,
        `  return Object.assign(new Error(\`ENOENT: no such file or directory, open '\${path}'\`), { code: 'ENOENT', syscall: 'open', path: String(path) });`,
        `}`,
        `export function readFileSync(path, options) {`,
        `  const text = embedded(path);`,
        `  if (text === undefined) return nodeReadFileSync(path, options);`,
        `  if (text === null) throw missing(path);`,
        `  const encoding = typeof options === 'string' ? options : options?.encoding;`,
        `  return encoding ? Buffer.from(text, 'utf8').toString(encoding) : Buffer.from(text, 'utf8');`,
        `}`,
        `export function existsSync(path) {`,
        `  const text = embedded(path);`,
        `  return text === undefined ? nodeExistsSync(path) : text !== null;`,
        `}`,
      ];
      return { contents: `${lines.join('\n')}\n`, loader: 'js', resolveDir: ROOT };
    });
  },
};

/**
 * import.meta.url of every module becomes `<bundle file>/dist/src/cli/main.js`, made from the
 * file's own name when it runs (`node admission-lint.cjs`, or bin/admission-lint.js, which passes
 * it as __filename). See embeddedFiles for why it lies inside the bundle file. esbuild's `inject`
 * makes `import_meta_url` available to every module, `define` puts it where import.meta.url was.
 */
const importMetaUrl: Plugin = {
  name: 'import-meta-url',
  setup(build) {
    build.onResolve({ filter: /^admission-lint:import-meta-url$/ }, () => ({ path: 'import-meta-url', namespace: 'import-meta-url' }));
    build.onLoad({ filter: /.*/, namespace: 'import-meta-url' }, () => ({
      contents: [
        `import { sep } from 'node:path';`,
        `import { pathToFileURL } from 'node:url';`,
        `export const import_meta_url = \`\${pathToFileURL(__filename).href}/dist/src/cli/main.js\`;`,
        `export const EMBEDDED_ROOT = __filename + sep;`,
        '',
      ].join('\n'),
      loader: 'js',
      resolveDir: ROOT,
    }));
  },
};

/**
 * The entry: exports `run` (bin/admission-lint.js calls it), and runs the CLI when Node runs the
 * file itself, through the same runner as bin/admission-lint.js (stdout, exit code, crash banner).
 */
const ENTRY_SOURCE = [
  // Strict, as the ES modules the bundle is made of; esbuild keeps an entry's directive first.
  `'use strict';`,
  `import { run } from ${JSON.stringify(`./${relative(ROOT, ENTRY).split(sep).join('/')}`)};`,
  `import { toolVersion } from './dist/src/cli/package-info.js';`,
  `import shim from './bin/admission-lint.js';`,
  `export { run };`,
  // Not when bin/admission-lint.js (the main module then) loads this file, or another file requires it.
  `if (require.main !== undefined && require.main.filename === __filename) shim.main(async () => ({ run }), toolVersion);`,
  '',
].join('\n');

/**
 * Escapes the non-ASCII characters esbuild leaves in its output (in comments, and in a regular
 * expression literal of a dependency) as \uXXXX, which means the same there. An ASCII bundle
 * is read as latin1, a one-byte string, much faster than UTF-8 decoding (bin/admission-lint.js).
 * Inside a template literal an escape would change String.raw, so that is refused.
 */
export function asciiOnly(text: string): string {
  const lines = text.split('\n');
  return lines
    .map((line, index) => {
      if (!/[^\x00-\x7f]/.test(line)) return line;
      if (!line.trimStart().startsWith('//') && line.includes('`')) throw new Error(`bundle line ${index + 1}: a non-ASCII character on a line with a template literal`);
      return line.replace(/[^\x00-\x7f]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
    })
    .join('\n');
}

function jsFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return jsFiles(path);
    return name.endsWith('.js') ? [path] : [];
  });
}

/**
 * The packages the compiled sources (not the build steps) name in a `require('…')` call: what
 * `createRequire` loads, which esbuild does not see. ES module imports esbuild bundles itself.
 */
export function requiredPackages(): Map<string, string> {
  const found = new Map<string, string>();
  const files = [...jsFiles(join(ROOT, 'dist', 'src')), ...jsFiles(join(ROOT, 'dist', 'rules'))].filter((file) => !file.includes(`${sep}dist${sep}src${sep}build${sep}`));
  for (const file of files) {
    for (const match of readFileSync(file, 'utf8').matchAll(/\brequire\(\s*(['"])([^'"]+)\1\s*\)/g)) {
      const id = match[2]!;
      if (!id.startsWith('.') && !isBuiltin(id) && !found.has(id)) found.set(id, relative(ROOT, file));
    }
  }
  return found;
}

/** The bundle's source: ASCII, strict, ending with its build id. Writes nothing. */
export async function bundleSource(): Promise<{ source: string; id: string }> {
  const unlisted = [...requiredPackages()].filter(([id]) => !(BUNDLED_REQUIRES as readonly string[]).includes(id));
  if (unlisted.length > 0) {
    throw new Error(`compiled sources require packages the bundle does not serve: ${unlisted.map(([id, file]) => `${id} (${file})`).join(', ')}; add them to BUNDLED_REQUIRES in src/build/bundle.ts`);
  }
  const { build } = await import('esbuild');
  const result = await build({
    stdin: { contents: ENTRY_SOURCE, resolveDir: ROOT, sourcefile: 'standalone-entry.js', loader: 'js' },
    // Paths in the output's comments are relative to the project, and packages are named by the
    // path they are found at (node_modules/…), not where a symlinked node_modules points: the
    // output is the same in every checkout (test/package-standalone-committed.test.ts).
    absWorkingDir: ROOT,
    preserveSymlinks: true,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    write: false,
    outfile: loader().BUNDLE,
    inject: ['admission-lint:import-meta-url'],
    define: { 'import.meta.url': 'import_meta_url' },
    plugins: [importMetaUrl, lazyBuiltins, noColorDetection, yamlProcess, bundledRequire, embeddedFs],
    banner: { js: '#!/usr/bin/env node' },
    charset: 'ascii',
    logLevel: 'warning',
    legalComments: 'none',
  });
  const text = asciiOnly(result.outputFiles[0]!.text);
  // A call, not the text of one: ajv keeps `'require("ajv/dist/runtime/equal")'` as a string, for
  // the code it generates (standalone validators), which the bundle never runs.
  const external = [...text.matchAll(/(?<![\w$.'"`])require\("([^"]+)"\)/g)].map((match) => match[1]!).filter((id) => !isBuiltin(id));
  if (external.length > 0) throw new Error(`the bundle requires packages it does not contain: ${[...new Set(external)].join(', ')}`);
  const id = createHash('sha256').update(text).digest('hex');
  return { source: `${text}//# admission-lint-build ${id}\n`, id };
}

export async function bundle(): Promise<{ file: string; bytes: number; id: string }> {
  const { source, id } = await bundleSource();
  const file = loader().BUNDLE;
  mkdirSync(dirname(file), { recursive: true });
  // Always written, even when unchanged: bin/admission-lint.js runs it only when it is newer than
  // tsc's output (src/cli/main.js), which the build has just rewritten.
  writeFileSync(file, source);
  // Executable: the pre-commit hook runs it as a script (its #! line names node).
  chmodSync(file, 0o755);
  return { file, bytes: Buffer.byteLength(source), id };
}

/** What the cache is warmed with: a webhook configuration with a matchCondition and a policy with its binding. */
const WARM_UP = `apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingWebhookConfiguration
metadata:
  name: warm-up
webhooks:
  - name: warm-up.example.com
    clientConfig:
      service: { namespace: warm-up, name: webhook, path: /validate, port: 443 }
      caBundle: Zm9v
    rules:
      - operations: [CREATE, UPDATE]
        apiGroups: ['apps']
        apiVersions: ['v1']
        resources: ['deployments', 'statefulsets']
    namespaceSelector:
      matchExpressions:
        - { key: team, operator: In, values: [a] }
    objectSelector:
      matchLabels: { app: web }
    matchConditions:
      - name: not-system
        expression: "!request.userInfo.username.startsWith('system:')"
    sideEffects: None
    timeoutSeconds: 30
    admissionReviewVersions: [v1]
---
apiVersion: v1
kind: Namespace
metadata:
  name: warm-up
  labels: { team: a }
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata:
  name: warm-up
spec:
  matchConstraints:
    resourceRules:
      - { apiGroups: [apps], apiVersions: [v1], operations: [CREATE], resources: [deployments] }
  validations:
    - expression: "object.spec.replicas <= 5"
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata:
  name: warm-up
spec:
  policyName: warm-up
  validationActions: [Deny]
`;

/** Runs the bundle once on WARM_UP and writes its code cache. */
export async function writeCodeCache(id: string): Promise<{ file: string; bytes: number }> {
  const shim = loader();
  rmSync(shim.CACHE, { force: true });
  const { exports, script } = shim.loadBundle({ cache: false });
  const run = exports.run as (argv: readonly string[], io: object) => Promise<number>;
  const sink = { write: () => true };
  const input = new TextEncoder().encode(WARM_UP);
  await run(['--no-color', '-'], { stdout: sink, stderr: sink, env: {}, readStdin: () => input });
  const data = script.createCachedData();
  if (id.length !== shim.ID_BYTES) throw new Error(`build id of ${id.length} characters`);
  mkdirSync(dirname(shim.CACHE), { recursive: true });
  writeFileSync(shim.CACHE, Buffer.concat([Buffer.from(id, 'latin1'), data]));
  return { file: shim.CACHE, bytes: data.length + id.length };
}

/** What builds before the standalone file wrote (the bundle lay in dist/): gone, so nothing reads a stale copy. */
const FORMER_OUTPUTS = ['dist/admission-lint.cjs', 'dist/admission-lint.cjs.cache'];

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  for (const file of FORMER_OUTPUTS) rmSync(join(ROOT, file), { force: true });
  const { id } = await bundle();
  await writeCodeCache(id);
  // The bundle must be what was just built: the cache is accepted for it.
  if (!loader().loadBundle().cacheUsed) process.stderr.write('admission-lint build: V8 rejected the code cache it just wrote; the CLI works, but starts slower\n');
}
