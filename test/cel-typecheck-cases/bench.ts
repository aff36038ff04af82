/**
 * Cost of the compile check per expression (not a test: run it by hand).
 *
 *   npx esbuild test/cel-typecheck-cases/bench.ts --bundle --platform=node --format=esm \
 *     --outfile=/tmp/cel-bench.mjs && node /tmp/cel-bench.mjs
 *
 * Prints: the first check of a process (loading and building one environment), the first check of
 * each further expression kind × version, and the mean per expression over the table's
 * expressions once every environment is built, beside the syntax-and-variables check that
 * src/cel/compile.ts (formerly src/validate/cel.ts) makes today (cel-js parse and AST walk) on the same expressions.
 */
import { performance } from 'node:perf_hooks';
import { checkExpression, EXPRESSION_KINDS } from '../../src/cel/check/index.js';
import { celCompileError } from '../../src/cel/compile.js';
import { prepareCel } from '../../src/cel/library.js';
import { ACCEPTED, REJECTED } from './table.js';

const rows = [...ACCEPTED, ...REJECTED];
const version = { major: 1, minor: 35 } as const;

let t = performance.now();
checkExpression('object != null', 'webhook.matchCondition', version);
const first = performance.now() - t;

t = performance.now();
for (const kind of EXPRESSION_KINDS) for (const minor of [29, 32, 35]) checkExpression('object != null', kind, { major: 1, minor });
const environments = (performance.now() - t) / (EXPRESSION_KINDS.length * 3);

const ROUNDS = 200;
for (const row of rows) checkExpression(row.expression, row.kind, version, { params: true });
t = performance.now();
for (let r = 0; r < ROUNDS; r++) for (const row of rows) checkExpression(row.expression, row.kind, version, { params: true });
const perExpression = (performance.now() - t) / (ROUNDS * rows.length);

await prepareCel();
const variables = new Set(['object', 'oldObject', 'request', 'authorizer', 'namespaceObject', 'params']);
for (const row of rows) celCompileError(row.expression, { variables, result: 'any', patchTypes: true });
t = performance.now();
for (let r = 0; r < ROUNDS; r++) for (const row of rows) celCompileError(row.expression, { variables, result: 'any', patchTypes: true });
const today = (performance.now() - t) / (ROUNDS * rows.length);

console.log(`first check in a process (environment built, declarations parsed): ${first.toFixed(1)} ms`);
console.log(`each further kind × version environment (first check): ${environments.toFixed(2)} ms`);
console.log(`per expression, environments built (${rows.length} expressions × ${ROUNDS}): ${(perExpression * 1000).toFixed(1)} µs`);
console.log(`per expression, src/cel/compile.ts celCompileError on the same: ${(today * 1000).toFixed(1)} µs`);
