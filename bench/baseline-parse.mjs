// The parse floor: parse every manifest file with yaml's parseAllDocuments (with a LineCounter,
// as the CLI needs positions) and turn every document into plain data.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { walk } from './walk.mjs';

// Resolve `yaml` from the project (the same copy the CLI uses).
const require = createRequire(new URL('../package.json', import.meta.url));
const { parseAllDocuments, LineCounter } = await import(pathToFileURL(require.resolve('yaml')).href);

let documents = 0;
for (const file of walk(process.argv[2])) {
  const lineCounter = new LineCounter();
  for (const doc of parseAllDocuments(readFileSync(file, 'utf8'), { lineCounter })) {
    doc.toJS();
    documents++;
  }
}
process.stdout.write(`${documents}\n`);
