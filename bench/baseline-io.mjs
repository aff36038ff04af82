// The I/O floor: read every manifest file and test it with one regular expression.
import { readFileSync } from 'node:fs';
import { walk } from './walk.mjs';

const WEBHOOK = /^kind:\s*(Validating|Mutating)WebhookConfiguration\s*$/m;
let hits = 0;
for (const file of walk(process.argv[2])) if (WEBHOOK.test(readFileSync(file, 'utf8'))) hits++;
process.stdout.write(`${hits}\n`);
