/**
 * `admission-lint probe [paths…] --webhook NAME --address HOST:PORT`: call one webhook of the
 * paths as the API server would, check its answer, and say what the API server would do.
 * Loaded only when the subcommand runs (main.ts imports it lazily). Exits 1 when a check fails
 * or the verdict is not the one --expect names, 2 for bad flags or unreadable paths, else 0.
 */
import { Command, Option } from 'commander';
import { UsageError } from '../errors.js';
import { DEFAULT_KUBE_VERSION, formatKubeVersion, parseKubeVersion } from '../kube/version.js';
import { checkDestinations } from '../output-safety/destinations.js';
import type { Io } from './io.js';
import { EXIT } from './exit-code.js';
import { emitOutput } from './output.js';
import { withExamples } from './help-examples.js';
import { parseSubcommand } from './simulate-command.js';
import { PROBE_FORMAT_LOADERS, PROBE_FORMATS } from '../probe/formats.js';

interface ProbeFlags {
  webhook?: string;
  address?: string;
  url?: string;
  caBundleFile?: string;
  operation?: string;
  resource?: string;
  group?: string;
  apiVersion?: string;
  subresource?: string;
  namespace?: string;
  namespaceLabels?: string;
  objectLabels?: string;
  dryRun?: boolean;
  object?: string;
  oldObject?: string;
  as: string;
  asGroup: string[];
  asUid?: string;
  repeat: string;
  concurrency: string;
  expect?: 'allowed' | 'denied';
  format: (typeof PROBE_FORMATS)[number];
  output?: string;
  kubeVersion?: string;
}

const collect = (value: string, previous: string[]): string[] => [...previous, value];

/** The username the probe sends when --as names none. */
export const DEFAULT_USER = 'admission-lint-probe';

export function probeCommand(): Command {
  const command = new Command('probe')
    .description('call one webhook of the paths as the API server would (its AdmissionReview, TLS against the caBundle, timeoutSeconds), check the answer step by step and say what the API server would do with the request (exits 1 when a check fails or the verdict is not --expect)')
    .argument('[paths...]', 'files, folders, or - for stdin (default: the current folder)')
    .option('--webhook <name>', "the webhook to call: its name, or CONFIGURATION/NAME (required)")
    .option('--address <host:port>', 'connect here instead of the service (e.g. 127.0.0.1:8443 after kubectl port-forward); the TLS server name and the path stay the configuration\'s')
    .option('--url <url>', 'connect to this https://HOST:PORT/PATH instead (the TLS server name stays the configuration\'s)')
    .option('--ca-bundle-file <file>', "PEM roots to verify the server with, instead of the configuration's caBundle (e.g. when it is injected in the cluster)")
    .option('--object <file>', "the request's object (- for stdin): fills in the operation (CREATE), resource, namespace and name")
    .option('--old-object <file>', 'the object before the update (with --object: an UPDATE)')
    .option('--operation <op>', 'CREATE, UPDATE, DELETE or CONNECT (default with --object: CREATE)')
    .option('--resource <resource>', 'the plural resource, e.g. pods (not needed with --object)')
    .option('--group <group>', 'the API group (default: "", the core group)')
    .option('--api-version <version>', "the API version (default: v1, or the group's only version)")
    .option('--subresource <name>', 'a subresource, e.g. status')
    .option('--namespace <name>', 'the namespace (default: the object\'s, else default)')
    .option('--namespace-labels <k=v,...>', "the namespace's labels, for whether the API server would call the webhook")
    .option('--object-labels <k=v,...>', "the object's labels without --object")
    .option('--dry-run', 'a dry-run request (a webhook whose sideEffects are not None or NoneOnDryRun is not called)')
    .option('--as <user>', 'request.userInfo.username', DEFAULT_USER)
    .option('--as-group <group>', 'a group in request.userInfo.groups (repeatable; system:authenticated is added)', collect, [])
    .option('--as-uid <uid>', 'request.userInfo.uid')
    .option('--repeat <n>', 'call it n times in all, for latency percentiles', '1')
    .option('--concurrency <c>', 'at most c calls at a time with --repeat', '1')
    .addOption(new Option('--expect <verdict>', 'exit 1 unless the API server would admit (allowed) or reject (denied) the request').choices(['allowed', 'denied']))
    .addOption(new Option('-f, --format <format>', 'output format').choices(PROBE_FORMATS).default('stylish'))
    .option('-o, --output <file>', 'write the output to a file instead of stdout')
    .option('--kube-version <version>', `the Kubernetes version (for the request's resources; default ${formatKubeVersion(DEFAULT_KUBE_VERSION)})`);
  return withExamples(command, 'probe');
}

function wholeNumber(text: string, flag: string): number {
  if (!/^\d+$/.test(text.trim())) throw new UsageError(`${flag} ${text}: give a whole number`);
  return Number(text.trim());
}

export async function runProbeCommand(args: readonly string[], io: Io): Promise<number> {
  const parsed = await parseSubcommand(probeCommand(), args, io);
  if (typeof parsed === 'number') return parsed;
  const flags = parsed.flags as unknown as ProbeFlags;
  if (flags.webhook === undefined || flags.webhook.trim() === '') throw new UsageError('probe needs --webhook NAME: the webhook to call', 'e.g. admission-lint probe deploy/ --webhook inject.example.com --object pod.yaml --address 127.0.0.1:8443');
  const kubeVersion = flags.kubeVersion !== undefined ? parseKubeVersion(flags.kubeVersion) : DEFAULT_KUBE_VERSION;
  const paths = parsed.paths.length > 0 ? parsed.paths : ['.'];
  const inputs = [...paths, ...[flags.object, flags.oldObject, flags.caBundleFile].filter((file): file is string => file !== undefined && file !== '-')];
  if (flags.output !== undefined) checkDestinations([{ flag: '--output', path: flags.output }], { paths: inputs }, process.cwd());
  // The API server adds system:authenticated to every user it authenticates (system:unauthenticated to the anonymous one).
  const groups = [...new Set([...flags.asGroup, flags.as === 'system:anonymous' ? 'system:unauthenticated' : 'system:authenticated'])];
  const { probe } = await import('../probe/probe.js');
  const report = await probe({
    paths,
    flags: { ...flags, version: flags.apiVersion },
    kubeVersion,
    ...(flags.object !== undefined ? { object: flags.object } : {}),
    ...(flags.oldObject !== undefined ? { oldObject: flags.oldObject } : {}),
    ...(io.readStdin ? { readStdin: io.readStdin } : {}),
    webhook: flags.webhook.trim(),
    target: { ...(flags.url !== undefined ? { url: flags.url } : {}), ...(flags.address !== undefined ? { address: flags.address } : {}) },
    ...(flags.caBundleFile !== undefined ? { caBundleFile: flags.caBundleFile } : {}),
    userInfo: { username: flags.as, uid: flags.asUid ?? '', groups, extra: {} },
    repeat: wholeNumber(flags.repeat, '--repeat'),
    concurrency: wholeNumber(flags.concurrency, '--concurrency'),
    ...(flags.expect !== undefined ? { expect: flags.expect } : {}),
  });
  const formatter = await PROBE_FORMAT_LOADERS[flags.format]();
  emitOutput(formatter(report), flags.output, io);
  return report.failed || report.expectationMet === false ? EXIT.findings : EXIT.ok;
}
