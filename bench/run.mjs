#!/usr/bin/env node
// Benchmark of the built CLI against baselines measured in the same run (`npm run bench`).
//
//   node bench/run.mjs [--out results.json] [--runs N] [--keep] [--no-scaled] [--only name,...]
//
// --only runs the named scenarios alone (monorepo, admission-heavy, pod-security, gitops,
// cold-start, monorepo-scaled-rss; gitops is its two measurements).
//
// Environment: BENCH_RUNS (default 5), BENCH_BUDGET (seconds for the measured runs, default 75;
// never fewer than 3 runs), BENCH_SCALE (RSS-only monorepo of BENCH_SCALE x 2,000 files, default
// 10, 0 skips it), BENCH_SCALED_TIMEOUT (default 10 s), BENCH_SEED (default 20240601).
//
// Each scenario's corpus is generated deterministically (seeded PRNG, bench/corpus.mjs) into a
// fresh temporary folder. The CLI and its baseline run alternately, after one unmeasured warm-up
// each (page cache, V8 code cache of node itself); the report gives medians of wall time and the
// largest RSS seen (/usr/bin/time -f %M, when that exists).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir, totalmem, platform, release, arch } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { writeAdmissionHeavy, writeGitops, writeMonorepo, writePodSecurity, writeSmall } from './corpus.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = resolve(HERE, '..');
const CLI = join(ROOT, 'bin', 'admission-lint.js');
const MAIN = join(ROOT, 'dist', 'src', 'cli', 'main.js');
const TIME = '/usr/bin/time';

const TARGETS = {
  monorepo: { ratio: 2.5, baseline: 'I/O floor (read + one regex)' },
  'admission-heavy': { ratio: 1.5, baseline: 'parse floor (parseAllDocuments + LineCounter + toJS)' },
  'cold-start': { ratio: 1.8, baseline: 'node -e 0' },
  'pod-security': { ratio: 1.5, baseline: 'parse floor (parseAllDocuments + LineCounter + toJS)' },
  'gitops-labelled': { ratio: 1.5, baseline: 'the same repository unlabelled (the CLI)' },
  gitops: { ratio: 3, baseline: 'I/O floor (read + one regex)' },
  'monorepo-scaled-rss': { rssMB: 200 },
};

const SCENARIOS = ['monorepo', 'admission-heavy', 'pod-security', 'gitops', 'cold-start', 'monorepo-scaled-rss'];

function parseArgs(argv) {
  const args = { out: null, runs: Number(process.env.BENCH_RUNS ?? 5), keep: false, scaled: true, only: null };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--out') args.out = resolve(argv[++i] ?? fail('--out needs a file'));
    else if (a === '--runs') args.runs = Number(argv[++i]);
    else if (a === '--keep') args.keep = true;
    else if (a === '--no-scaled') args.scaled = false;
    else if (a === '--only') args.only = new Set((argv[++i] ?? fail('--only needs scenario names')).split(','));
    else if (a === '-h' || a === '--help') {
      process.stdout.write(readFileSync(fileURLToPath(import.meta.url), 'utf8').split('\n').slice(1, 9).map((l) => l.replace(/^\/\/ ?/, '')).join('\n') + '\n');
      process.exit(0);
    } else fail(`unknown argument: ${a}`);
  }
  if (!Number.isInteger(args.runs) || args.runs < 1) fail('--runs / BENCH_RUNS must be a positive integer');
  for (const name of args.only ?? []) if (!SCENARIOS.includes(name)) fail(`unknown scenario: ${name} (one of ${SCENARIOS.join(', ')})`);
  return args;
}

function fail(message) {
  process.stderr.write(`bench: ${message}\n`);
  process.exit(2);
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
const hasTime = (() => {
  if (!existsSync(TIME)) return false;
  const r = spawnSync(TIME, ['-f', '%M', process.execPath, '-e', '0'], { encoding: 'utf8' });
  return r.status === 0 && /^\d+\s*$/m.test(r.stderr);
})();

const rssFile = join(tmpdir(), `admission-lint-bench-rss-${process.pid}`);
const readRss = () => {
  if (!hasTime) return null;
  const m = /(\d+)\s*$/.exec(readFileSync(rssFile, 'utf8'));
  rmSync(rssFile, { force: true });
  return m ? Number(m[1]) : null;
};
const command = (argv) => (hasTime ? [TIME, '-f', '%M', '-o', rssFile, process.execPath, ...argv] : [process.execPath, ...argv]);

/** One run: wall time in ms (measured here), peak RSS in KiB (from /usr/bin/time) or null. */
function runOnce(argv, { okCodes = [0], cwd }) {
  const full = command(argv);
  const start = performance.now();
  const r = spawnSync(full[0], full.slice(1), { cwd, stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  const ms = performance.now() - start;
  if (r.error) fail(`cannot run ${argv.join(' ')}: ${r.error.message}`);
  // /usr/bin/time passes the exit code through.
  if (!okCodes.includes(r.status)) fail(`${argv.join(' ')} exited with ${r.status}:\n${r.stderr}`);
  return { ms, rssKiB: readRss() };
}

/**
 * One run stopped after `timeoutS` seconds (`timedOut`: its peak RSS is then the peak up to that
 * moment, a lower bound). The node process itself is killed (under /usr/bin/time it is time's
 * child), so time still reports its peak RSS.
 */
function runWithTimeout(argv, { okCodes = [0], cwd, timeoutS }) {
  const full = command(argv);
  const start = performance.now();
  const child = spawn(full[0], full.slice(1), { cwd, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk) => (stderr = (stderr + chunk).slice(-8192)));
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    let target = child.pid;
    if (hasTime) {
      try {
        target = Number(readFileSync(`/proc/${child.pid}/task/${child.pid}/children`, 'utf8').trim().split(/\s+/)[0]) || child.pid;
      } catch {}
    }
    process.kill(target, 'SIGKILL');
  }, timeoutS * 1000);
  return new Promise((resolvePromise) => {
    child.on('close', (code) => {
      clearTimeout(timer);
      const ms = performance.now() - start;
      if (!timedOut && !okCodes.includes(code)) fail(`${argv.join(' ')} exited with ${code}:\n${stderr}`);
      resolvePromise({ ms, rssKiB: readRss(), timedOut });
    });
  });
}

/**
 * Runs the CLI and the baseline alternately, `runs` measured pairs (after one unmeasured warm-up
 * pair when `warmup`). While the CLI is slow the pairs are cut to what fits in `budgetS`, but
 * never below MIN_RUNS; the report says how many pairs each median is of.
 */
const MIN_RUNS = 3;
function measure(name, cliArgv, baseArgv, { runs, budgetS, warmup, cwd, baseOkCodes = [0] }) {
  const cliOpts = { okCodes: [0, 1], cwd }; // 1 = findings; 2 = crash or usage error
  const baseOpts = { okCodes: baseOkCodes, cwd };
  if (warmup) {
    runOnce(cliArgv, cliOpts);
    runOnce(baseArgv, baseOpts);
  }
  const cli = [];
  const base = [];
  const t0 = performance.now();
  for (let i = 0; i < runs; i++) {
    const elapsed = (performance.now() - t0) / 1000;
    if (i >= MIN_RUNS && budgetS > 0 && elapsed + elapsed / i > budgetS) break;
    progress(`${name}: run ${i + 1}/${runs}`);
    cli.push(runOnce(cliArgv, cliOpts));
    base.push(runOnce(baseArgv, baseOpts));
  }
  const summary = (rs) => ({
    medianMs: round(median(rs.map((r) => r.ms))),
    runsMs: rs.map((r) => round(r.ms)),
    peakRssMB: hasTime ? round(Math.max(...rs.map((r) => r.rssKiB)) / 1024) : null,
  });
  const c = summary(cli);
  const b = summary(base);
  return { runs: cli.length, requestedRuns: runs, cli: c, baseline: b, ratio: round(c.medianMs / b.medianMs, 2) };
}

const progress = (text) => {
  if (process.stderr.isTTY) process.stderr.write(`\r\x1b[K  ${text}`);
};
const round = (x, digits = 1) => Math.round(x * 10 ** digits) / 10 ** digits;

function gitCommit() {
  const r = spawnSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT, encoding: 'utf8' });
  if (r.status !== 0) return null;
  const dirty = spawnSync('git', ['status', '--porcelain', '--untracked-files=no', '--', 'src', 'rules', 'bin'], { cwd: ROOT, encoding: 'utf8' });
  return r.stdout.trim() + (dirty.status === 0 && dirty.stdout.trim() ? '+dirty(src)' : '');
}

// ---------------------------------------------------------------------------------------------

const args = parseArgs(process.argv.slice(2));
if (!existsSync(MAIN)) fail(`${MAIN} is missing: build the CLI first (npm run build; npm run bench builds it)`);

const seed = Number(process.env.BENCH_SEED ?? 20240601);
const scale = Number(process.env.BENCH_SCALE ?? 10);
const FILES = 2000;
// Seconds for the measured runs of all scenarios (the corpora and the build come on top).
const budget = Number(process.env.BENCH_BUDGET ?? 75);
// The RSS-only scaled run is stopped after this long: its peak RSS is then a lower bound.
const scaledTimeout = Number(process.env.BENCH_SCALED_TIMEOUT ?? 10);
const work = mkdtempSync(join(tmpdir(), 'admission-lint-bench-'));
const started = performance.now();
const cpuList = cpus();
const machine = {
  cores: cpuList.length,
  cpu: cpuList[0]?.model ?? 'unknown',
  memoryGB: round(totalmem() / 1024 ** 3, 1),
  node: process.version,
  os: `${platform()} ${release()} ${arch()}`,
};
const out = {
  date: new Date().toISOString(),
  commit: gitCommit(),
  machine,
  settings: { runs: args.runs, minRuns: MIN_RUNS, budgetS: budget, scaledTimeoutS: scaledTimeout, seed, scale: args.scaled ? scale : 0, rss: hasTime ? `${TIME} -f %M` : 'n/a' },
  corpora: {},
  scenarios: {},
  targets: [],
};

process.stdout.write(`admission-lint benchmark  ${out.date}  commit ${out.commit ?? 'n/a'}\n`);
process.stdout.write(`machine: ${machine.cores} cores (${machine.cpu}), ${machine.memoryGB} GB, Node ${machine.node}, ${machine.os}\n`);
process.stdout.write(
  `runs: median of ${args.runs} CLI/baseline pairs, alternating (at least ${MIN_RUNS} within a ${budget} s budget; cold start: ${Math.max(args.runs, 10)} after a warm-up), seed ${seed}\n` +
    `peak RSS via ${hasTime ? '/usr/bin/time -f %M' : 'n/a (no /usr/bin/time)'}; scaled monorepo x${args.scaled ? scale : 0} for RSS only, 1 run, stopped after ${scaledTimeout} s\n`,
);
process.stdout.write(`corpora in ${work}\n\n`);

try {
  const io = join(HERE, 'baseline-io.mjs');
  const parse = join(HERE, 'baseline-parse.mjs');
  const cli = (path) => [CLI, '--no-color', path];

  const wanted = (name) => args.only === null || args.only.has(name);

  if (wanted('monorepo')) {
    const mono = join(work, 'monorepo');
    out.corpora.monorepo = writeMonorepo(mono, { files: FILES, seed });
    out.scenarios.monorepo = measure('monorepo', cli(mono), [io, mono], { runs: args.runs, budgetS: budget * 0.2, warmup: false, cwd: work });
  }

  if (wanted('admission-heavy')) {
    const adm = join(work, 'admission-heavy');
    out.corpora['admission-heavy'] = writeAdmissionHeavy(adm, { files: FILES, seed: seed + 1 });
    out.scenarios['admission-heavy'] = measure('admission-heavy', cli(adm), [parse, adm], { runs: args.runs, budgetS: budget * 0.4, warmup: false, cwd: work });
  }

  if (wanted('pod-security')) {
    const psa = join(work, 'pod-security');
    out.corpora['pod-security'] = writePodSecurity(psa, { files: FILES, seed: seed + 4 });
    out.scenarios['pod-security'] = measure('pod-security', cli(psa), [parse, psa], { runs: args.runs, budgetS: budget * 0.2, warmup: false, cwd: work });
  }

  if (wanted('gitops')) {
    // The GitOps repository (issue 23) with its Namespaces labelled, against the same unlabelled;
    // then the unlabelled one against the I/O floor.
    const labelled = join(work, 'gitops-labelled');
    const unlabelled = join(work, 'gitops');
    out.corpora['gitops-labelled'] = writeGitops(labelled, { files: FILES, seed: seed + 5 });
    out.corpora.gitops = writeGitops(unlabelled, { files: FILES, seed: seed + 5, labels: false });
    out.scenarios['gitops-labelled'] = measure('gitops-labelled', cli(labelled), cli(unlabelled), { runs: args.runs, budgetS: budget * 0.2, warmup: false, cwd: work, baseOkCodes: [0, 1] });
    out.scenarios.gitops = measure('gitops', cli(unlabelled), [io, unlabelled], { runs: args.runs, budgetS: budget * 0.1, warmup: false, cwd: work });
  }

  if (wanted('cold-start')) {
    const small = writeSmall(join(work, 'small'), { seed: seed + 2 });
    out.corpora['cold-start'] = { files: small.files, documents: small.documents };
    out.scenarios['cold-start'] = measure('cold-start', cli(small.file), ['-e', '0'], { runs: Math.max(args.runs, 10), budgetS: 0, warmup: true, cwd: work });
  }

  if (wanted('monorepo-scaled-rss') && args.scaled && scale > 0) {
    const big = join(work, 'monorepo-scaled');
    out.corpora['monorepo-scaled-rss'] = writeMonorepo(big, { files: FILES * scale, seed: seed + 3 });
    progress(`monorepo-scaled-rss: 1 run (stopped after ${scaledTimeout} s)`);
    const r = await runWithTimeout(cli(big), { okCodes: [0, 1], cwd: work, timeoutS: scaledTimeout });
    const b = runOnce([io, big], { cwd: work });
    out.scenarios['monorepo-scaled-rss'] = {
      runs: 1,
      timedOut: r.timedOut,
      timeoutS: scaledTimeout,
      cli: { ms: round(r.ms), peakRssMB: r.rssKiB == null ? null : round(r.rssKiB / 1024) },
      baseline: { ms: round(b.ms), peakRssMB: b.rssKiB == null ? null : round(b.rssKiB / 1024) },
      ratio: r.timedOut ? null : round(r.ms / b.ms, 2),
    };
    progress('');
  }
} finally {
  if (!args.keep) rmSync(work, { recursive: true, force: true });
}

// ---------------------------------------------------------------------------------------------

const pad = (s, n) => String(s).padEnd(n);
const lpad = (s, n) => String(s).padStart(n);
const mb = (x) => (x == null ? 'n/a' : `${x} MB`);
process.stdout.write(`${pad('scenario', 21)}${pad('corpus', 25)}${lpad('runs', 5)}${lpad('cli', 12)}${lpad('baseline', 11)}${lpad('ratio', 8)}${lpad('cli RSS', 11)}${lpad('base RSS', 11)}\n`);
for (const [name, s] of Object.entries(out.scenarios)) {
  const c = out.corpora[name];
  const corpus = `${c.files} files, ${c.documents} docs`;
  const cliMs = s.cli.medianMs ?? s.cli.ms;
  const baseMs = s.baseline.medianMs ?? s.baseline.ms;
  const cliCell = s.timedOut ? `>${cliMs} ms` : `${cliMs} ms`;
  const rssCell = s.timedOut ? `>=${mb(s.cli.peakRssMB)}` : mb(s.cli.peakRssMB);
  process.stdout.write(
    `${pad(name, 21)}${pad(corpus, 25)}${lpad(s.runs, 5)}${lpad(cliCell, 12)}${lpad(`${baseMs} ms`, 11)}${lpad(s.ratio == null ? '-' : `${s.ratio}x`, 8)}${lpad(rssCell, 11)}${lpad(mb(s.baseline.peakRssMB), 11)}\n`,
  );
}
process.stdout.write('(times are medians of wall time; RSS is the largest peak RSS over the runs)\n');
for (const [name, s] of Object.entries(out.scenarios)) {
  if (s.requestedRuns && s.runs < s.requestedRuns) process.stdout.write(`note: ${name}: ${s.runs} of ${s.requestedRuns} runs, to stay within the time budget (BENCH_BUDGET=${budget} s; 0 = no limit)\n`);
  if (s.timedOut) process.stdout.write(`note: ${name}: stopped after ${s.timeoutS} s (BENCH_SCALED_TIMEOUT); its RSS is the peak up to then, a lower bound\n`);
}
process.stdout.write('\ntargets:\n');
for (const [name, t] of Object.entries(TARGETS)) {
  const s = out.scenarios[name];
  if (!s) continue;
  let result;
  if (t.ratio) {
    result = { scenario: name, target: `<= ${t.ratio}x ${t.baseline}`, measured: `${s.ratio}x`, met: s.ratio <= t.ratio };
  } else {
    const rss = s.cli.peakRssMB;
    // A run stopped early proves a failure (its peak is a lower bound) but not a pass.
    const met = rss == null ? null : rss >= t.rssMB ? false : s.timedOut ? null : true;
    result = { scenario: name, target: `peak RSS < ${t.rssMB} MB (monorepo x${scale})`, measured: `${s.timedOut ? '>= ' : ''}${mb(rss)}`, met };
  }
  out.targets.push(result);
  const verdict = result.met == null ? 'n/a ' : result.met ? 'PASS' : 'FAIL';
  process.stdout.write(`  ${verdict}  ${pad(name, 21)}${pad(result.target, 64)}measured ${result.measured}\n`);
}
out.totalSeconds = round((performance.now() - started) / 1000);

const outFile = args.out ?? join(tmpdir(), `admission-lint-bench-${out.date.replace(/[:.]/g, '-')}.json`);
writeFileSync(outFile, JSON.stringify(out, null, 2) + '\n');
process.stdout.write(`\nresults: ${outFile}  (${out.totalSeconds} s in all)\n`);
