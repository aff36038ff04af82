#!/usr/bin/env node
// Summarises a V8 .cpuprofile (from `node --cpu-prof`): top functions by self time, and self
// time by package / project folder.
//
//   node --cpu-prof --cpu-prof-dir=/tmp/prof bin/admission-lint.js <corpus> > /dev/null
//   node bench/profile-summary.mjs /tmp/prof/CPU.*.cpuprofile [top=25]
import { readFileSync } from 'node:fs';

// `… | head` closes the pipe early: stop quietly.
process.stdout.on('error', (error) => process.exit(error.code === 'EPIPE' ? 0 : 1));

const [file, topArg] = process.argv.slice(2);
if (!file) {
  process.stderr.write('usage: node bench/profile-summary.mjs <file.cpuprofile> [top]\n');
  process.exit(2);
}
const top = Number(topArg ?? 25);
const profile = JSON.parse(readFileSync(file, 'utf8'));
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const self = new Map();
const dt = profile.timeDeltas;
for (let i = 0; i < profile.samples.length; i++) self.set(profile.samples[i], (self.get(profile.samples[i]) ?? 0) + (dt[i] ?? 0));
const total = [...self.values()].reduce((a, b) => a + b, 0);

const where = (url) => {
  if (!url) return '(native/vm)';
  const nm = url.lastIndexOf('node_modules/');
  if (nm >= 0) {
    const rest = url.slice(nm + 'node_modules/'.length).split('/');
    return rest[0].startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0];
  }
  const m = /\/dist\/(src\/[^/]+)\//.exec(url) ?? /\/dist\/(src\/[^/]+\.js)/.exec(url);
  if (m) return m[1];
  if (url.startsWith('node:')) return 'node internals';
  return url.replace(/^file:\/\//, '');
};
const fnKey = (n) => {
  const cf = n.callFrame;
  const short = cf.url ? `${where(cf.url)}:${cf.url.split('/').pop()}:${cf.lineNumber + 1}` : '';
  return `${cf.functionName || '(anonymous)'}  ${short}`;
};
const byFn = new Map();
const byWhere = new Map();
for (const [id, us] of self) {
  const n = byId.get(id);
  byFn.set(fnKey(n), (byFn.get(fnKey(n)) ?? 0) + us);
  const w = ['(garbage collector)', '(program)', '(idle)'].includes(n.callFrame.functionName) ? n.callFrame.functionName : where(n.callFrame.url);
  byWhere.set(w, (byWhere.get(w) ?? 0) + us);
}
const pct = (us) => `${((100 * us) / total).toFixed(1).padStart(5)}%`;
const ms = (us) => `${(us / 1000).toFixed(0).padStart(6)} ms`;
process.stdout.write(`total sampled: ${(total / 1000).toFixed(0)} ms\n\nself time by package / folder:\n`);
for (const [w, us] of [...byWhere].sort((a, b) => b[1] - a[1]).slice(0, 15)) process.stdout.write(`  ${ms(us)} ${pct(us)}  ${w}\n`);
process.stdout.write(`\ntop ${top} functions by self time:\n`);
for (const [f, us] of [...byFn].sort((a, b) => b[1] - a[1]).slice(0, top)) process.stdout.write(`  ${ms(us)} ${pct(us)}  ${f}\n`);
