import fs from 'node:fs'; import path from 'node:path';
import { readSimpleDocument } from './dist/src/parse/simple-yaml.js';
import { POD_SECURITY_UNREAD_KEYS } from './dist/src/psa/screen.js';
const root = process.argv[2]; const docs = [];
function walk(d) { for (const e of fs.readdirSync(d, { withFileTypes: true })) { const p = path.join(d, e.name); if (e.isDirectory()) walk(p); else for (const doc of fs.readFileSync(p, 'utf8').split(/^---$/m)) if (/kind: (Deployment|StatefulSet|DaemonSet|Job|CronJob|Pod|ReplicaSet)\b/.test(doc)) docs.push(doc); } }
walk(root);
const t = performance.now(); for (const d of docs) readSimpleDocument(d, { skip: POD_SECURITY_UNREAD_KEYS }); console.log('cold', (performance.now() - t).toFixed(1));
