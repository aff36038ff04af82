/**
 * `admission-lint simulate [paths…] --operation … --resource …`: the admission path of one
 * request. Loaded only when the subcommand runs (main.ts imports it lazily). Exits 0 when the
 * simulation ran, whatever it found; 2 for bad flags or unreadable paths.
 */
import { Command, CommanderError, Option } from 'commander';
import { UsageError } from '../errors.js';
import { DEFAULT_KUBE_VERSION, formatKubeVersion, parseKubeVersion } from '../kube/version.js';
import type { Io } from './io.js';
import { EXIT } from './exit-code.js';
import { checkDestinations } from '../output-safety/destinations.js';
import { emitOutput } from './output.js';
import { withExamples } from './help-examples.js';
import { nonEmptyStdin } from './stdin.js';
import { notesOfPaths, writeInputNotes } from './input-notes.js';
import { parserOutput } from './parse-errors.js';
import { SIMULATE_FORMAT_LOADERS, SIMULATE_FORMATS } from '../simulate/formats.js';


interface SimulateFlags {
  operation?: string;
  resource?: string;
  group?: string;
  apiVersion?: string;
  /** The old spelling of --api-version, still read (with a deprecation note on stderr). */
  version?: string;
  subresource?: string;
  namespace?: string;
  namespaceLabels?: string;
  objectLabels?: string;
  dryRun?: boolean;
  format: (typeof SIMULATE_FORMATS)[number];
  output?: string;
  kubeVersion?: string;
  /** --object FILE|-: the request's object (fills in operation, resource, namespace and labels). */
  object?: string;
  /** --old-object FILE: the object before an UPDATE. */
  oldObject?: string;
  podSecurityConfig?: string;
}

export function simulateCommand(): Command {
  const command = new Command('simulate')
    .description('print the admission path of one request through the webhooks and policies in the paths: which are called, in what order, what happens when one fails, and the worst-case latency (exits 0 when the simulation ran)')
    .argument('[paths...]', 'files, folders, or - for stdin (default: the current folder)')
    .option('--operation <op>', 'CREATE, UPDATE, DELETE or CONNECT (required)')
    .option('--resource <resource>', 'the plural resource, e.g. pods or deployments (or pods/status) (required)')
    .option('--group <group>', 'the API group (default: "", the core group)')
    .option('--api-version <version>', "the API version (default: v1, or the group's only version)")
    // Hidden: --version means the tool's version everywhere else; this spelling keeps scripts working.
    .addOption(new Option('--version <version>', 'deprecated spelling of --api-version').hideHelp())
    .option('--subresource <name>', 'a subresource, e.g. status, scale, exec')
    .option('--namespace <name>', 'the namespace (for namespaced resources; for namespaces, the Namespace itself)')
    .option('--namespace-labels <k=v,...>', "the namespace's labels (default: its Namespace manifest in the paths, else only kubernetes.io/metadata.name)")
    .option('--object-labels <k=v,...>', "the object's labels (default: none)")
    .option('--dry-run', 'a dry-run request: show the webhooks whose sideEffects make it fail')
    .option('--object <file>', "the request's object (- for stdin): fills in the operation (CREATE), resource, namespace and labels, and makes object selectors, matchConditions and PodSecurity exact")
    .option('--old-object <file>', 'the object before the update (with --object: an UPDATE)')
    .option('--pod-security-config <file>', "the cluster's PodSecurity admission configuration (PodSecurityConfiguration or AdmissionConfiguration): its defaults and exemptions")
    .addOption(new Option('-f, --format <format>', 'output format').choices(SIMULATE_FORMATS).default('text'))
    .option('-o, --output <file>', 'write the output to a file instead of stdout')
    .option('--kube-version <version>', `the Kubernetes version to simulate (default ${formatKubeVersion(DEFAULT_KUBE_VERSION)})`);
  return withExamples(command, 'simulate');
}

/**
 * The request's API version from --api-version or its deprecated spelling --version, which
 * still works and says so on stderr (one line). Both, with different values, is a usage error.
 */
export function apiVersionOf(flags: Pick<SimulateFlags, 'apiVersion' | 'version'>, io: Pick<Io, 'stderr'>): string | undefined {
  if (flags.version === undefined) return flags.apiVersion;
  io.stderr.write("admission-lint: simulate --version is deprecated; use --api-version (everywhere else --version prints the tool's version)\n");
  if (flags.apiVersion !== undefined && flags.apiVersion !== flags.version) {
    throw new UsageError(`--api-version ${flags.apiVersion} and --version ${flags.version} disagree`, '--version is the old spelling of --api-version: give only --api-version');
  }
  return flags.version;
}

/** Parses `args` (everything after `simulate`) with its own commander program; commander's own errors become exit 2. */
export async function parseSubcommand(command: Command, args: readonly string[], io: Io): Promise<{ paths: string[]; flags: Record<string, unknown> } | number> {
  const output = parserOutput(io, command.name());
  // A parent without options of its own, so that help says "admission-lint <command>" and --version is the command's.
  const parent = new Command('admission-lint').exitOverride().configureOutput(output).helpCommand(false);
  command.exitOverride().configureOutput(output);
  parent.addCommand(command);
  let parsed: { paths: string[]; flags: Record<string, unknown> } | undefined;
  command.action((paths: string[], flags: Record<string, unknown>) => {
    parsed = { paths, flags };
  });
  try {
    await parent.parseAsync([command.name(), ...args], { from: 'user' });
  } catch (error) {
    if (error instanceof CommanderError) return error.code === 'commander.helpDisplayed' || error.code === 'commander.help' ? EXIT.ok : EXIT.fatal;
    throw error;
  }
  if (parsed === undefined) throw new UsageError(`${command.name()}: nothing to do`);
  return parsed;
}

export async function runSimulateCommand(args: readonly string[], io: Io): Promise<number> {
  const parsed = await parseSubcommand(simulateCommand(), args, io);
  if (typeof parsed === 'number') return parsed;
  const flags = parsed.flags as unknown as SimulateFlags;
  const version = apiVersionOf(flags, io);
  const kubeVersion = flags.kubeVersion !== undefined ? parseKubeVersion(flags.kubeVersion) : DEFAULT_KUBE_VERSION;
  const paths = parsed.paths.length > 0 ? parsed.paths : ['.'];
  // As lint's: never through a symlink, never onto an input of the run (checked before reading).
  const inputs = [...paths, ...[flags.object, flags.oldObject].filter((file): file is string => file !== undefined && file !== '-')];
  if (flags.output !== undefined) checkDestinations([{ flag: '--output', path: flags.output }], { paths: inputs }, process.cwd());
  writeInputNotes(notesOfPaths(paths), io);
  const { simulate } = await import('../simulate/simulate.js');
  const { podSecuritySettingsFrom } = await import('../psa/settings.js');
  const path = await simulate({
    paths,
    flags: { ...flags, version },
    kubeVersion,
    podSecurity: podSecuritySettingsFrom({ podSecurityConfig: flags.podSecurityConfig }),
    ...(flags.object !== undefined ? { object: flags.object } : {}),
    ...(flags.oldObject !== undefined ? { oldObject: flags.oldObject } : {}),
    readStdin: nonEmptyStdin(io.readStdin, 'simulate'),
  });
  const formatter = await SIMULATE_FORMAT_LOADERS[flags.format]();
  emitOutput(formatter(path), flags.output, io);
  if (path.mutating.length + path.validating.length + path.policies.length === 0) io.stderr.write('admission-lint: no webhook configurations or validating admission policies found in the paths\n');
  return EXIT.ok;
}
