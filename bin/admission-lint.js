#!/usr/bin/env node
// Thin shim: run the CLI, set the exit code, let stdout drain. Anything thrown here is a bug.
//
// CommonJS (bin/package.json), so that starting the CLI does not start Node's ES module loader.
// It runs standalone/admission-lint.cjs, the one-file build of the CLI that `npm run build` writes
// (src/build/bundle.ts) and the repository commits, compiled with the V8 code cache the build
// writes to dist/ when there is one: Node 20 has no module compile cache, and parsing and
// compiling the CLI's code is a large part of a cold start. A cache that V8 rejects (another Node
// version or V8 flags), that belongs to another build, or that is missing (a git install, a fresh
// clone) is not used: then V8 compiles the bundle as usual. A bundle older than tsc's output (a
// plain `tsc` run in a checkout) is not used either: then the compiled ES modules in dist/src/ run.
//
// The standalone file runs main() below too (the build bundles this file into it): one runner.
'use strict';
const { isAscii } = require('node:buffer');
const { fstatSync, readFileSync, statSync, writeSync } = require('node:fs');
const { createRequire } = require('node:module');
const { dirname, join } = require('node:path');
const { pathToFileURL } = require('node:url');
const vm = require('node:vm');

const BUNDLE = join(__dirname, '..', 'standalone', 'admission-lint.cjs');
/** Its V8 code cache, written by the build (not committed: it is valid for one V8 build only). */
const CACHE = join(__dirname, '..', 'dist', 'admission-lint.code-cache');
/** What the bundle is built from (tsc's output). */
const ENTRY = join(__dirname, '..', 'dist', 'src', 'cli', 'main.js');
/** The code cache file starts with this many bytes: the build id that ends the bundle's source. */
const ID_BYTES = 64;

/** The build id the bundle's source ends with (`//# admission-lint-build <id>`), or undefined. */
function buildId(source) {
  const match = /\/\/# admission-lint-build ([0-9a-f]{64})\s*$/.exec(source.slice(-100));
  return match ? match[1] : undefined;
}

/**
 * Loads the bundle (with its code cache, unless `cache` is false) and returns its exports and
 * the compiled script (the build uses it to write the cache).
 */
function loadBundle({ cache = true } = {}) {
  const bytes = readFileSync(BUNDLE);
  // Its first line is `#!/usr/bin/env node`, for running it as a script; inside the function
  // below that is a syntax error. A comment of the same length keeps every line and column.
  // Changed in the bytes: a changed string would be a second 2.5 MB string for V8 to flatten
  // (measured: tens of milliseconds at every start).
  if (bytes[0] === 0x23 && bytes[1] === 0x21) bytes[0] = bytes[1] = 0x2f;
  // The build writes an ASCII bundle: latin1 makes a one-byte string, much faster than UTF-8.
  const source = isAscii(bytes) ? bytes.toString('latin1') : bytes.toString('utf8');
  let cachedData;
  if (cache) {
    try {
      const data = readFileSync(CACHE);
      const id = buildId(source);
      if (id !== undefined && data.subarray(0, ID_BYTES).toString('latin1') === id) cachedData = data.subarray(ID_BYTES);
    } catch {
      // No cache: compile as usual.
    }
  }
  // A CommonJS module's function, as Node wraps the file when it runs it directly.
  const script = new vm.Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, {
    filename: BUNDLE,
    ...(cachedData ? { cachedData } : {}),
  });
  const bundle = { exports: {} };
  script.runInThisContext()(bundle.exports, createRequire(BUNDLE), bundle, BUNDLE, dirname(BUNDLE));
  return { exports: bundle.exports, script, cacheUsed: cachedData !== undefined && !script.cachedDataRejected };
}

/**
 * The bundle is stale when tsc has compiled the sources after it was built (a `tsc` run without
 * `npm run build`): then the compiled modules are run instead, as before the bundle existed.
 * A package or a checkout without the compiled entry module has only the bundle.
 */
function bundleIsCurrent() {
  let entry;
  try {
    entry = statSync(ENTRY).mtimeMs;
  } catch {
    return true;
  }
  try {
    // A second of slack: a copy of dist/ that does not keep times (cp -r) may write the bundle
    // before tsc's output, while tsc, which takes seconds, cannot finish within a second of the
    // build's bundle step.
    return statSync(BUNDLE).mtimeMs + 1000 >= entry;
  } catch {
    return false;
  }
}

/** The CLI's module: the bundle, or the compiled ES modules when the bundle is stale or missing. */
async function cli() {
  if (bundleIsCurrent()) return loadBundle().exports;
  return import(pathToFileURL(ENTRY).href);
}

/**
 * Runs the CLI as this process: `loadCli` gives the module with `run`, `version` the version for
 * the crash banner. Used by this shim and by the standalone file, which bundles this file.
 */
function main(loadCli, version) {
  const banner = (error) => {
    let known = 'unknown';
    try {
      known = version();
    } catch {}
    // The stack may quote the input (a message built from a file's text): control characters
    // other than line breaks and tabs are shown as escapes, so a crash cannot drive the terminal.
    const text = String(error?.stack ?? error).replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
    process.stderr.write(`internal error in admission-lint ${known}; please report it with the input that caused it\n${text}\n`);
    process.exitCode = 2;
  };
  /**
   * stdout. When it is a regular file or /dev/null, Node's process.stdout would be a
   * SyncWriteStream, which calls fs.writeSync for every write: writing with fs.writeSync here is
   * the same, without loading Node's stream modules at every start. Otherwise (a terminal, a
   * pipe) it is process.stdout.
   */
  const stdout = (() => {
    try {
      const fd = fstatSync(1);
      if (fd.isFile() || (fd.isCharacterDevice() && fd.rdev === statSync('/dev/null').rdev)) {
        return { write: (text) => (writeSync(1, text), true) };
      }
    } catch {
      // Not a file: use process.stdout.
    }
    // A reader that goes away early (`admission-lint … | head`) is not a bug: stop quietly.
    process.stdout.on('error', (error) => {
      if (error?.code === 'EPIPE') process.exit(process.exitCode ?? 0);
      banner(error);
    });
    return process.stdout;
  })();
  process.on('uncaughtException', banner);
  process.on('unhandledRejection', banner);

  (async () => {
    const { run } = await loadCli();
    // process.stderr is made on first use only: as a pipe it loads Node's net and streams.
    const stderr = { write: (text) => process.stderr.write(text) };
    const code = await run(process.argv.slice(2), { stdout, stderr, env: process.env });
    // A crash reported meanwhile (exit code 2) must not be hidden by a later 0 or 1.
    if (process.exitCode !== 2) process.exitCode = code;
  })().catch(banner);
}

module.exports = { loadBundle, buildId, bundleIsCurrent, main, BUNDLE, CACHE, ENTRY, ID_BYTES };

if (require.main === module) {
  main(cli, () => JSON.parse(readFileSync(join(__dirname, '..', 'package.json'), 'utf8')).version);
}
