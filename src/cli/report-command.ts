/**
 * `admission-lint report [paths…]`: the blast-radius report. Loaded only when the subcommand
 * runs (main.ts imports it lazily). Exits 0 when the report was written; 2 for bad flags or
 * unreadable paths.
 */
import { Command, Option } from 'commander';
import { DEFAULT_KUBE_VERSION, formatKubeVersion, parseKubeVersion } from '../kube/version.js';
import { EXIT } from './exit-code.js';
import type { Io } from './io.js';
import { toolVersion } from './package-info.js';
import { checkDestinations } from '../output-safety/destinations.js';
import { emitOutput } from './output.js';
import { withExamples } from './help-examples.js';
import { nonEmptyStdin } from './stdin.js';
import { notesOfPaths, writeInputNotes } from './input-notes.js';
import { parseSubcommand } from './simulate-command.js';
import { REPORT_FORMAT_LOADERS, REPORT_FORMATS } from '../report/formats.js';


interface ReportFlags {
  format: (typeof REPORT_FORMATS)[number];
  output?: string;
  kubeVersion?: string;
  namespace?: string;
  podSecurityConfig?: string;
}

export function reportCommand(): Command {
  const command = new Command('report')
    .description('print the blast-radius report: per webhook what it intercepts, the namespaces it selects, its failurePolicy, timeout, reinvocation and findings; then which webhook can block which critical resource')
    .argument('[paths...]', 'files, folders, or - for stdin (default: the current folder)')
    .addOption(new Option('-f, --format <format>', 'output format (html: one self-contained file, for a CI artifact)').choices(REPORT_FORMATS).default('text'))
    .option('-o, --output <file>', 'write the report to a file instead of stdout')
    .option('--kube-version <version>', `the Kubernetes version to report for (default ${formatKubeVersion(DEFAULT_KUBE_VERSION)})`)
    .option('--namespace <name>', "the namespace of workloads that name none, as kubectl's (default: default)")
    .option('--pod-security-config <file>', "the cluster's PodSecurity admission configuration (PodSecurityConfiguration or AdmissionConfiguration): its defaults and exemptions");
  return withExamples(command, 'report');
}

export async function runReportCommand(args: readonly string[], io: Io): Promise<number> {
  const parsed = await parseSubcommand(reportCommand(), args, io);
  if (typeof parsed === 'number') return parsed;
  const flags = parsed.flags as unknown as ReportFlags;
  const kubeVersion = flags.kubeVersion !== undefined ? parseKubeVersion(flags.kubeVersion) : DEFAULT_KUBE_VERSION;
  const paths = parsed.paths.length > 0 ? parsed.paths : ['.'];
  // As lint's: never through a symlink, never onto an input of the run (checked before reading).
  if (flags.output !== undefined) checkDestinations([{ flag: '--output', path: flags.output }], { paths }, process.cwd());
  writeInputNotes(notesOfPaths(paths), io);
  const { buildReport } = await import('../report/build.js');
  const { podSecuritySettingsFrom } = await import('../psa/settings.js');
  const podSecurity = podSecuritySettingsFrom(flags);
  const report = await buildReport({ paths, kubeVersion, toolVersion: toolVersion(), podSecurity, readStdin: nonEmptyStdin(io.readStdin, 'report') });
  const formatter = await REPORT_FORMAT_LOADERS[flags.format]();
  emitOutput(formatter(report), flags.output, io);
  if (report.webhooks.length === 0) io.stderr.write('admission-lint: no webhook configurations found in the paths\n');
  return EXIT.ok;
}
