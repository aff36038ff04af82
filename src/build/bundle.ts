/**
 * Build step (`npm run build`, last): bundles the compiled CLI (dist/src/cli/main.js, with the
 * precompiled validators) into one CommonJS file, dist/admission-lint.cjs, and writes the V8
 * code cache for it, dist/admission-lint.cjs.cache, which bin/admission-lint.js loads it with.
 *
 * Why: on Node 20 (no module compile cache before Node 22) a cold start spent most of its time
 * resolving, reading and compiling about 60 modules and then compiling each function on its first
 * call. One file with a code cache of the functions a lint runs skips all of that. esbuild is a
 * dev dependency only; nothing of it ships.
 *
 * The cache is made by running the bundle on a small built-in manifest (WARM_UP), so that the
 * functions a typical lint calls are compiled and cached. The cache starts with the bundle's
 * build id (a digest of the bundle, also written at its end), so a cache of another build is never
 * used; V8 itself rejects a cache of another V8 version or other flags.
 */
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import { rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Plugin } from 'esbuild';

const ROOT = new URL('../../../', import.meta.url);
const ENTRY = fileURLToPath(new URL('dist/src/cli/main.js', ROOT));

interface Loader {
  loadBundle(options?: { cache?: boolean }): { exports: Record<string, unknown>; script: import('node:vm').Script; cacheUsed: boolean };
  BUNDLE: string;
  ID_BYTES: number;
}

/**
 * Builtins that are required at a module's top level but that a lint seldom or never uses are
 * loaded on first use instead, which keeps them out of the start-up:
 * - commander requires node:child_process for executable subcommands (admission-lint has none);
 * - ca-bundle needs node:crypto only for a caBundle with PEM certificates in it, sarif only to
 *   hash; client-config-url needs node:net only for a webhook with a url.
 * Each function (or class) the builtin exports becomes a proxy that loads the builtin when it is
 * called, constructed or read from. A name that is not a function is not exported, so an import
 * of one fails the build instead of going wrong at run time.
 */
const LAZY_BUILTINS: readonly { builtin: string; importer: RegExp }[] = [
  { builtin: 'node:child_process', importer: /[\\/]node_modules[\\/]commander[\\/]/ },
  { builtin: 'node:crypto', importer: /[\\/]dist[\\/](src|rules)[\\/]/ },
  { builtin: 'node:net', importer: /[\\/]dist[\\/](src|rules)[\\/]/ },
];

const lazyBuiltins: Plugin = {
  name: 'lazy-builtins',
  setup(build) {
    for (const { builtin, importer } of LAZY_BUILTINS) {
      const filter = new RegExp(`^${builtin.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`);
      build.onResolve({ filter }, (args) => (importer.test(args.importer) ? { path: builtin, namespace: 'lazy-builtin' } : undefined));
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
        ...names.map((name) => `export const ${name} = lazy(${JSON.stringify(name)});`),
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

export async function bundle(): Promise<{ file: string; bytes: number; id: string }> {
  const { build } = await import('esbuild');
  const require = createRequire(import.meta.url);
  const loader = require('../../../bin/admission-lint.js') as Loader;
  const result = await build({
    entryPoints: [ENTRY],
    outfile: loader.BUNDLE,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    write: false,
    // ajv is required at run time only to check a config file (and only in the sources, to
    // compile the decode schemas): it stays in node_modules, loaded on demand.
    external: ['ajv', 'ajv/*'],
    // import.meta.url of every module becomes the bundle's own URL (a parameter of the function
    // bin/admission-lint.js wraps the bundle in): package-info.ts finds the project root from it,
    // createRequire resolves packages from it. No banner: "use strict" must stay the first line.
    define: { 'import.meta.url': '__bundle_url' },
    plugins: [lazyBuiltins, noColorDetection],
    charset: 'ascii',
    logLevel: 'warning',
    legalComments: 'none',
  });
  const text = asciiOnly(result.outputFiles[0]!.text);
  const id = createHash('sha256').update(text).digest('hex');
  const source = `${text}//# admission-lint-build ${id}\n`;
  writeFileSync(loader.BUNDLE, source);
  return { file: loader.BUNDLE, bytes: Buffer.byteLength(source), id };
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
  const require = createRequire(import.meta.url);
  const loader = require('../../../bin/admission-lint.js') as Loader;
  const file = `${loader.BUNDLE}.cache`;
  rmSync(file, { force: true });
  const { exports, script } = loader.loadBundle({ cache: false });
  const run = exports.run as (argv: readonly string[], io: object) => Promise<number>;
  const sink = { write: () => true };
  const input = new TextEncoder().encode(WARM_UP);
  await run(['--no-color', '-'], { stdout: sink, stderr: sink, env: {}, readStdin: () => input });
  const data = script.createCachedData();
  if (id.length !== loader.ID_BYTES) throw new Error(`build id of ${id.length} characters`);
  writeFileSync(file, Buffer.concat([Buffer.from(id, 'latin1'), data]));
  return { file, bytes: data.length + id.length };
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  const { id } = await bundle();
  await writeCodeCache(id);
  // The bundle must be what was just built: the cache is accepted for it.
  const require = createRequire(import.meta.url);
  const check = (require('../../../bin/admission-lint.js') as Loader).loadBundle();
  if (!check.cacheUsed) process.stderr.write('admission-lint build: V8 rejected the code cache it just wrote; the CLI works, but starts slower\n');
}
