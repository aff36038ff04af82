import fs from 'node:fs'; import path from 'node:path';
import { readSimpleDocument } from './dist/src/parse/simple-yaml.js';
import { POD_SECURITY_UNREAD_KEYS } from './dist/src/psa/screen.js';
const root = process.argv[2]; const docs = [];
function walk(d) { for (const e of fs.readdirSync(d, { withFileTypes: true })) { const p = path.join(d, e.name); if (e.isDirectory()) walk(p); else for (const doc of fs.readFileSync(p, 'utf8').split(/^---$/m)) if (/kind: (Deployment|StatefulSet|DaemonSet|Job|CronJob|Pod|ReplicaSet)\b/.test(doc)) docs.push(doc); } }
walk(root);
console.log(docs.length, 'docs', docs.reduce((a, d) => a + d.length, 0), 'chars');
const time = (name, f) => { for (let r = 0; r < 4; r++) { const t = performance.now(); for (const d of docs) f(d); if (r === 3 || r === 0) console.log(name, r, (performance.now() - t).toFixed(1)); } };
time('split', (d) => d.split('\n'));
time('read-skip', (d) => readSimpleDocument(d, { skip: POD_SECURITY_UNREAD_KEYS }));
time('read-all', (d) => readSimpleDocument(d));
let lines = 0; time('charscan', (d) => { let n = 0; for (let i = 0; i < d.length; i++) if (d.charCodeAt(i) === 10) n++; lines += n; });
time('regex', (d) => /\\[xuU]|\\\r?\n|binary/.test(d));
