import { loadRun } from './dist/src/engine/load-run.js';
const run = loadRun([process.argv[2]], undefined, { kustomizationFolders: [] });
for (const l of run.kustomizations) console.log(l.file.replace(/.*trees\//,''), JSON.stringify({ ...l, resources: l.resources.map(r => r.replace(/.*trees\//,'')) , file: undefined}));
for (const p of run.kustomizePatches) console.log('PATCH', p.file.replace(/.*trees\//,''), JSON.stringify(p.target), p.metadataOnly, JSON.stringify(p.selectors)?.slice(0,100));
