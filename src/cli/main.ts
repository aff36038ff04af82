/**
 * The command line (design.md §3). stdout carries only the report; messages go to stderr.
 * Returns the exit code instead of exiting, so a report piped to another program is never cut.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, isAbsolute, relative, resolve } from 'node:path';
import { Command, CommanderError, Option } from 'commander';
import { Chalk } from 'chalk';
import { rules } from '../../rules/index.js';
import { globMatcher } from '../config/glob.js';
import { loadConfig } from '../config/load.js';
import { configSchemaText } from '../config/schema.js';
import type { ResolvedConfig } from '../config/types.js';
import { applyBaseline, readBaseline, writeBaseline, type Baseline } from '../engine/baseline.js';
import { lint, loadRun } from '../engine/lint.js';
import { expandPaths, newWalkNotes, type WalkNotes } from '../load/sources.js';
import type { Gate, Report } from '../engine/finding.js';
import { UsageError, UserError } from '../errors.js';
import { whatItDoes } from '../format/docs.js';
import { guardText, safeText } from '../format/escape.js';
import { FORMATS, FORMATS_THAT_REPORT_HIDDEN, FORMATS_THAT_SAY_THE_GATE, FORMATS_WITH_FIXES, loadFormatter, type FormatName } from '../format/index.js';
import { describeGate } from '../format/gate.js';
import { fixesForFindings } from '../fix/report-fixes.js';
import { describeHidden } from '../format/hidden.js';
import type { FormatOptions } from '../format/types.js';
import { DEFAULT_KUBE_VERSION, formatKubeVersion, parseKubeVersion, unreleasedBeyond, type KubeVersion } from '../kube/version.js';
import { matchesEveryName, namePatterns } from '../text/glob.js';
import type { SeverityOverride } from '../severity.js';
import { emitWithDefaultComments } from '../parse/emit.js';
import { SEVERITIES } from '../rule.js';
import { EXIT, exitCodeFor, type FailOn } from './exit-code.js';
import { emitOutput } from './output.js';
import { checkDestinations } from '../output-safety/destinations.js';
import { PROJECT_ROOT, toolVersion } from './package-info.js';
import { formatRulesTable, renderDoc } from './rule-docs.js';
import { closest } from '../text/closest.js';
import { examplesText } from './help-examples.js';
import { parseRuleOptions, parseRuleOverrides, unknownRule } from './rule-flags.js';
import { useColor, wrapWidth } from './terminal.js';
import { parseMaxWarnings, shownFindings, tooManyWarnings } from './shown.js';
import { nonEmptyStdin } from './stdin.js';
import { notesOfPaths, writeInputNotes } from './input-notes.js';
import { parserOutput } from './parse-errors.js';
import { withStdinFilename } from './stdin-filename.js';
import type { Io } from './io.js';
import { podSecuritySettingsFrom } from '../psa/settings.js';
import { addFixOptions, keptStdin, runFixMode, type FixFlags } from './fix-mode.js';
import { readStdinSync } from '../load/sources.js';

export type { Io } from './io.js';

interface LintFlags extends FixFlags {
  format: FormatName;
  output?: string;
  /** `warn` as typed; read as `warning`. */
  failOn: FailOn | 'warn';
  color: boolean;
  quiet?: boolean;
  kubeVersion?: string;
  rule: string[];
  ruleOption: string[];
  trustedNamespaceLabel: string[];
  config?: string;
  baseline?: string;
  writeBaseline?: string;
  /** --no-inline-config: ignore suppression comments and annotations. */
  inlineConfig: boolean;
  /** --no-config-lookup: read no config file unless --config names one. */
  configLookup: boolean;
  /** --allow-empty: a run with no file to lint is not an error. */
  allowEmpty?: boolean;
  /** --namespace: the namespace of objects that name none (kubectl's default: default). */
  namespace?: string;
  /** --pod-security-config: the cluster's PodSecurity admission configuration. */
  podSecurityConfig?: string;
  /** --show-fixes: stylish prints each finding's fix under it. */
  showFixes?: boolean;
  /** --show-info: stylish prints infos too (it counts them otherwise). */
  showInfo?: boolean;
  /** --max-warnings N: more than N warnings fail the run (as typed; checked in runLint). */
  maxWarnings?: string;
  /** --stdin-filename: the name of what `-` reads, in the findings. */
  stdinFilename?: string;
}

const collect = (value: string, previous: string[]): string[] => [...previous, value];

/** The "What it does" section of a rule's doc (for SARIF), read when a formatter asks for it. */
function ruleDescription(id: string): string | undefined {
  try {
    return whatItDoes(readFileSync(`${PROJECT_ROOT}rules/${id}.md`, 'utf8'));
  } catch {
    return undefined;
  }
}

async function render(report: Report, format: FormatName, options: FormatOptions): Promise<string> {
  const formatter = await loadFormatter(format);
  return formatter(report, options);
}

/**
 * A rule that crashed is a bug: the report above is complete but for that rule on that object.
 * Says so on stderr, with the version and where the stack points, for the exit code 2.
 */
export function reportInternalErrors(report: Report, io: Pick<Io, 'stderr'>): boolean {
  const errors = report.internalErrors ?? [];
  for (const error of errors) {
    const frame = error.stack.split('\n').find((line) => line.trim().startsWith('at '))?.trim() ?? '';
    // The file, object and message can carry input text: one line each, no workflow command.
    io.stderr.write(guardText(`admission-lint ${report.toolVersion}: internal error in rule ${error.ruleId} on ${safeText(error.file)}${error.object ? ` (${safeText(error.object)})` : ''}: ${safeText(error.message)}\n`));
    if (frame) io.stderr.write(guardText(`  ${safeText(frame)}\n`));
  }
  if (errors.length > 0) io.stderr.write('  please report it, with the input that caused it; the other findings are complete\n');
  return errors.length > 0;
}

/** Per rule: the config's options, then the command line's on top (option by option). */
function mergeOptions(
  base: ReadonlyMap<string, Readonly<Record<string, number | string>>>,
  top: ReadonlyMap<string, Readonly<Record<string, number | string>>>,
): Map<string, Record<string, number | string>> {
  const merged = new Map<string, Record<string, number | string>>([...base].map(([id, values]) => [id, { ...values }]));
  for (const [id, values] of top) merged.set(id, { ...merged.get(id), ...values });
  return merged;
}

/**
 * The files to lint: the expanded paths minus those the config's `ignore` patterns match
 * (relative to the config file's folder) and minus the config and baseline files themselves.
 */
function filesToLint(paths: readonly string[], config: ResolvedConfig, cwd: string, own: readonly string[], notes: WalkNotes): { files: string[]; ignored: number } {
  const matcher = globMatcher(config.ignore);
  const skip = new Set(own.map((path) => resolve(cwd, path)));
  let ignored = 0;
  const files = expandPaths(paths, notes).filter((file) => {
    if (file === '-') return true;
    const absolute = resolve(cwd, file);
    if (skip.has(absolute)) return false;
    const rel = relative(config.baseDir, absolute);
    if (rel === '' || rel.startsWith('..') || isAbsolute(rel)) return true;
    if (!matcher.matches(rel)) return true;
    ignored++;
    return false;
  });
  return { files, ignored };
}

const SEVERITY_RANK: Record<SeverityOverride, number> = { off: -1, info: 0, warning: 1, error: 2 };

/**
 * What the config and the command line changed about the gate (the JSON's `gate`, and the line
 * every format says): files ignored, rules off or lowered, fail-on, inline suppressions ignored,
 * options that match every name, a Kubernetes version no server runs yet.
 */
function gateOf(run: {
  config: ResolvedConfig;
  selected: { ignored: number };
  severityOverrides: ReadonlyMap<string, SeverityOverride>;
  ruleOptions: ReadonlyMap<string, Readonly<Record<string, number | string>>>;
  failOn: FailOn;
  inlineConfig: boolean;
  kubeVersion: KubeVersion;
  trustedNamespaceLabels: readonly string[];
}): Gate {
  const ids = rules.map((rule) => rule.meta.id);
  const lowered = rules
    .flatMap((rule) => {
      const to = run.severityOverrides.get(rule.meta.id);
      return to !== undefined && to !== 'off' && SEVERITY_RANK[to] < SEVERITY_RANK[rule.meta.severity] ? [{ rule: rule.meta.id, from: rule.meta.severity, to }] : [];
    })
    .sort((a, b) => (a.rule < b.rule ? -1 : a.rule > b.rule ? 1 : 0));
  const optionsMatchingAll = rules.flatMap((rule) =>
    Object.entries(rule.meta.options ?? {}).flatMap(([option, declared]) => {
      const value = run.ruleOptions.get(rule.meta.id)?.[option];
      if (declared.namePatterns !== true || typeof value !== 'string') return [];
      return namePatterns(value).some(matchesEveryName) ? [{ rule: rule.meta.id, option, value }] : [];
    }),
  );
  // Every other name-pattern option exempts the names it matches: said too (s44a H2: `a*,b*,…` matches every name without a lone star).
  const optionsExempting = rules.flatMap((rule) =>
    Object.entries(rule.meta.options ?? {}).flatMap(([option, declared]) => {
      const value = run.ruleOptions.get(rule.meta.id)?.[option];
      if (declared.namePatterns !== true || typeof value !== 'string') return [];
      const patterns = namePatterns(value);
      return patterns.length > 0 && !patterns.some(matchesEveryName) ? [{ rule: rule.meta.id, option, value }] : [];
    }),
  );
  const optionsLoosened = rules.flatMap((rule) =>
    Object.entries(rule.meta.options ?? {}).flatMap(([option, declared]) => {
      const value = run.ruleOptions.get(rule.meta.id)?.[option];
      const loosens = declared.loosensAbove;
      if (loosens === undefined || typeof value !== 'number' || typeof declared.default !== 'number' || value <= declared.default) return [];
      const from = loosens.reportsNothingFrom;
      return [{ rule: rule.meta.id, option, value, default: declared.default, reportsNothing: from !== undefined && value >= from }];
    }),
  );
  const released = unreleasedBeyond(run.kubeVersion);
  return {
    config: run.config.file,
    filesIgnored: run.selected.ignored,
    rulesOff: ids.filter((id) => run.severityOverrides.get(id) === 'off').sort(),
    failOn: run.failOn,
    inlineConfig: run.inlineConfig,
    severitiesLowered: lowered,
    optionsMatchingAll,
    optionsLoosened,
    optionsExempting,
    kubeVersion: formatKubeVersion(run.kubeVersion),
    kubeVersionUnreleased: released === undefined ? null : formatKubeVersion(released),
    trustedNamespaceLabels: [...run.trustedNamespaceLabels],
  };
}

/** The subcommands, for "did you mean" when a path that does not exist looks like one (`admission-lint lnt`). */
const SUBCOMMANDS = ['lint', 'defaults', 'rules', 'config-schema', 'explain', 'simulate', 'report', 'probe'];

async function runLint(paths: string[], flags: LintFlags, io: Io, failOnFromCommandLine: boolean): Promise<number> {
  const cwd = process.cwd();
  const first = paths[0];
  if (first !== undefined && first !== '-' && !first.includes('/') && !existsSync(resolve(cwd, first))) {
    const command = closest(first, SUBCOMMANDS, 2);
    if (command !== undefined) throw new UsageError(`no such file or folder: ${first}`, `did you mean the command "admission-lint ${command}"?`);
  }
  const config = loadConfig({ cwd, rules, lookup: flags.configLookup, ...(flags.config !== undefined ? { explicit: flags.config } : {}) });
  const severityOverrides = new Map([...config.severities, ...parseRuleOverrides(flags.rule, rules)]);
  const ruleOptions = mergeOptions(config.options, parseRuleOptions(flags.ruleOption, rules));
  const failOnFlag: FailOn = flags.failOn === 'warn' ? 'warning' : flags.failOn;
  const failOn: FailOn = failOnFromCommandLine ? failOnFlag : (config.failOn ?? failOnFlag);
  const maxWarnings = parseMaxWarnings(flags.maxWarnings);
  const kubeVersion = flags.kubeVersion ?? config.kubeVersion;
  // Read before linting, so a missing or broken baseline fails before any output.
  const baseline: Baseline | undefined = flags.baseline !== undefined ? readBaseline(flags.baseline, cwd) : undefined;
  // Refused destinations (symbolic links, inputs, one file twice) fail before any work or write.
  checkDestinations(
    [...(flags.output !== undefined ? [{ flag: '--output', path: flags.output }] : []), ...(flags.writeBaseline !== undefined ? [{ flag: '--write-baseline', path: flags.writeBaseline }] : [])],
    { paths: paths.length > 0 ? paths : ['.'], config: config.path, baseline: flags.baseline },
    cwd,
  );
  const own = [config.path, flags.baseline, flags.writeBaseline].filter((path): path is string => path !== undefined);
  const walkNotes = newWalkNotes();
  const selected = filesToLint(paths.length > 0 ? paths : ['.'], config, cwd, own, walkNotes);
  writeInputNotes(walkNotes, io);
  // A gate that read nothing must not look like one that found nothing.
  if (selected.files.length === 0 && !flags.allowEmpty) {
    const why = selected.ignored > 0 ? `: the config's ignore patterns took all ${selected.ignored}` : '';
    throw new UsageError(`no file to lint in ${(paths.length > 0 ? paths : ['.']).join(', ')}${why}`, 'pass --allow-empty when an empty run is expected');
  }
  const trusted = flags.trustedNamespaceLabel.length > 0 ? flags.trustedNamespaceLabel : (config.trustedNamespaceLabels ?? []);
  const stdin = keptStdin(nonEmptyStdin(io.readStdin, 'lint', flags.allowEmpty), readStdinSync);
  const lintOptions = {
    ruleOptions,
    inlineConfig: flags.inlineConfig,
    paths: selected.files,
    kustomizationFolders: walkNotes.kustomizationFolders,
    linkedKustomizations: walkNotes.linkedKustomizations,
    rules,
    kubeVersion: kubeVersion ? parseKubeVersion(kubeVersion) : DEFAULT_KUBE_VERSION,
    kubeVersionDefaulted: !kubeVersion,
    trustedNamespaceLabels: trusted,
    podSecurity: podSecuritySettingsFrom(flags),
    severityOverrides,
    toolVersion: toolVersion(),
    readStdin: stdin.read,
  };
  let linted = await lint(lintOptions);
  // --fix, --fix-dry-run (src/cli/fix-mode.ts): after fixing, the report is of the fixed files.
  const fixed = flags.fix || flags.fixDryRun ? runFixMode(flags, { findings: linted.findings, paths: selected.files, cwd, stdin: stdin.bytes() }, io) : undefined;
  if (fixed?.relint) linted = await lint({ ...lintOptions, ...(fixed.stdin ? { readStdin: () => fixed.stdin! } : {}) });
  const report = withStdinFilename(linted, flags.stdinFilename);
  const target = kubeVersion ? parseKubeVersion(kubeVersion) : DEFAULT_KUBE_VERSION;
  const gate = gateOf({ config, selected, severityOverrides, ruleOptions, failOn, inlineConfig: flags.inlineConfig, kubeVersion: target, trustedNamespaceLabels: trusted });
  let filtered: Report = { ...report, gate };
  let inBaseline: number | undefined;
  if (baseline !== undefined && flags.baseline !== undefined) {
    // The gate stays on the report the baseline filters: a changed gate is said whatever else is on.
    const result = applyBaseline({ ...report, gate }, baseline, dirname(resolve(cwd, flags.baseline)), cwd);
    filtered = result.report;
    inBaseline = result.matched;
    if (result.grown > 0) {
      io.stderr.write(`admission-lint: ${result.grown} ${result.grown === 1 ? 'finding' : 'findings'} of the baseline ${flags.baseline} now ${result.grown === 1 ? 'stands' : 'stand'} for more places than recorded and ${result.grown === 1 ? 'is' : 'are'} reported as new\n`);
    }
    if (result.raised > 0) {
      io.stderr.write(`admission-lint: ${result.raised} ${result.raised === 1 ? 'finding' : 'findings'} of the baseline ${flags.baseline} rose in severity and ${result.raised === 1 ? 'is' : 'are'} reported as new\n`);
    }
    if (result.withoutSeverity > 0) {
      io.stderr.write(`admission-lint: ${result.withoutSeverity} ${result.withoutSeverity === 1 ? 'entry' : 'entries'} of the baseline ${flags.baseline} record no severity and hide a finding whatever its severity; --write-baseline ${flags.baseline} records it\n`);
    }
    if (result.gone > 0) {
      io.stderr.write(`admission-lint: ${result.gone} ${result.gone === 1 ? 'entry' : 'entries'} of the baseline ${flags.baseline} no longer ${result.gone === 1 ? 'occurs' : 'occur'}; --write-baseline ${flags.baseline} removes ${result.gone === 1 ? 'it' : 'them'}\n`);
    }
  }
  if (flags.writeBaseline !== undefined) {
    const written = writeBaseline(flags.writeBaseline, report.findings, cwd);
    io.stderr.write(`admission-lint: wrote ${report.findings.length} ${report.findings.length === 1 ? 'finding' : 'findings'} (${written.entries.length} ${written.entries.length === 1 ? 'entry' : 'entries'}) to the baseline ${flags.writeBaseline}\n`);
  }
  // A written baseline exits 0, so what -q hid cannot fail that run.
  const { shown, hidden } = shownFindings({ filtered, format: flags.format, quiet: flags.quiet === true, showInfo: flags.showInfo === true, inBaseline, failOn: flags.writeBaseline !== undefined ? 'never' : failOn });
  const options: FormatOptions = {
    rules: rules.map((rule) => rule.meta),
    ruleDescription,
    cwd: process.cwd(),
    color: useColor(flags, io),
    inventory: report.inventory,
    width: flags.format === 'stylish' ? wrapWidth(flags, io) : undefined,
    hidden,
    showFixes: flags.showFixes === true,
    // SARIF and rdjson carry each finding's fixes and suggestions (src/fix/, nothing written); stylish shows them with --show-fixes.
    ...(FORMATS_WITH_FIXES.has(flags.format) || (flags.format === 'stylish' && flags.showFixes === true) ? { fixes: fixesForFindings(shown.findings, { paths: selected.files, cwd, ...((fixed?.stdin ?? stdin.bytes()) ? { stdin: fixed?.stdin ?? stdin.bytes()! } : {}) }) } : {}),
  };
  if (!fixed?.usedStdout || flags.output !== undefined) emitOutput(await render(shown, flags.format, options), flags.output, io);
  // Formats without a summary for people: a changed gate goes to stderr, never silently.
  const gateNote = describeGate(shown, { loweringOnly: true });
  if (gateNote !== undefined && !FORMATS_THAT_SAY_THE_GATE.has(flags.format)) io.stderr.write(`admission-lint: ${gateNote}\n`);
  // Formats without a summary for people: what was hidden goes to stderr, never silently.
  const hiddenNote = describeHidden(hidden);
  if (hiddenNote.length > 0 && !FORMATS_THAT_REPORT_HIDDEN.has(flags.format)) io.stderr.write(`admission-lint: ${hiddenNote.join('; ')}\n`);
  // A limit of key reading was reached (hostile or huge input): what was not looked for is said.
  if (report.summary.privateKeysNotRead === true) io.stderr.write('admission-lint: some private keys in Secrets were not read (past the limits of a run, docs/architecture.md): ca-bundle did not check whether a caBundle trusts them\n');
  if (reportInternalErrors(report, io)) return EXIT.fatal;
  // Writing a baseline records the findings; it is not a failed check.
  if (flags.writeBaseline !== undefined) return EXIT.ok;
  const overWarnings = tooManyWarnings(filtered, maxWarnings);
  if (overWarnings !== undefined) io.stderr.write(`admission-lint: ${overWarnings}\n`);
  return overWarnings !== undefined ? EXIT.findings : exitCodeFor(filtered, failOn);
}

function runDefaults(paths: string[], io: Io): number {
  writeInputNotes(notesOfPaths(paths.length > 0 ? paths : ['.']), io);
  const run = loadRun(paths.length > 0 ? paths : ['.'], nonEmptyStdin(io.readStdin, 'defaults'));
  // In the order the objects appear in the files: webhook configurations, policies and bindings.
  const objects = [...run.webhookConfigurations, ...run.policies].sort(
    (a, b) => (a.manifest.file.path < b.manifest.file.path ? -1 : a.manifest.file.path > b.manifest.file.path ? 1 : 0) || a.manifest.documentIndex - b.manifest.documentIndex,
  );
  const documents = objects.map((object) => {
    const span = object.manifest.locate([]);
    const header = `${object.manifest.file.path}:${span.line} ${object.kind} ${object.name ?? '(no name)'}${object.decodable ? '' : ' (not decodable: fields with the wrong type are shown as written)'}`;
    return emitWithDefaultComments(object.effective, object.defaultedPaths, header);
  });
  io.stdout.write(documents.join('---\n'));
  if (documents.length === 0) io.stderr.write('admission-lint: no webhook configurations or admission policies found\n');
  return EXIT.ok;
}

function runRules(flags: { format: 'text' | 'json' }, io: Io): number {
  io.stdout.write(formatRulesTable(rules, flags.format));
  return EXIT.ok;
}

function runExplain(id: string, flags: { color: boolean }, io: Io): number {
  const rule = rules.find((candidate) => candidate.meta.id === id);
  const file = `${PROJECT_ROOT}rules/${id}.md`;
  if (!rule || !existsSync(file)) throw unknownRule(id, rules);
  io.stdout.write(renderDoc(readFileSync(file, 'utf8'), new Chalk({ level: useColor(flags, io) ? 1 : 0 })));
  return EXIT.ok;
}

function program(io: Io, setExit: (code: number) => void): Command {
  const root = new Command('admission-lint')
    .description('Lint Kubernetes admission webhook configurations: API defaults, API-server validation, and the risks that take clusters down.')
    .version(toolVersion(), '-v, --version')
    .exitOverride()
    .configureOutput(parserOutput(io, ''))
    .addHelpText('after', examplesText('admission-lint'));

  root
    .command('lint', { isDefault: true })
    .description('lint files, folders (recursive: .yaml .yml .json) and "-" (stdin)')
    .addHelpText('after', examplesText('lint'))
    .argument('[paths...]', 'files, folders, or - for stdin (default: the current folder)')
    .addOption(new Option('-f, --format <format>', 'output format').choices(FORMATS).default('stylish'))
    .option('-o, --output <file>', 'write the report to a file instead of stdout')
    .addOption(new Option('--fail-on <severity>', 'exit 1 when a finding is at least this severe').choices([...SEVERITIES, 'never', 'warn']).default('error'))
    .option('--no-color', 'no colours (also: NO_COLOR, or when stdout is not a terminal)')
    .option('-q, --quiet', 'report errors only (the exit code still follows --fail-on; the summary says how many were hidden)')
    .option('--show-info', 'stylish: show infos too (by default it counts them in the summary)')
    .option('--show-fixes', "stylish: print under each finding its own fix or suggestion and the edit, else how to fix it")
    .option('--max-warnings <n>', 'exit 1 when there are more than n warnings (as ESLint)')
    .option('--stdin-filename <path>', 'the file name findings from standard input ("-") carry, for annotations, SARIF and baselines')
    .option('--kube-version <version>', `the Kubernetes version to check against (default ${formatKubeVersion(DEFAULT_KUBE_VERSION)})`)
    .option('--rule <id=severity>', 'set a rule to off, info, warning or error (also warn, 0, 1, 2 as in ESLint) (repeatable)', collect, [])
    .option('--rule-option <id.name=value>', "set a rule's option, e.g. long-timeout.thresholdSeconds=10 (repeatable)", collect, [])
    .option('--trusted-namespace-label <key>', 'a namespace label key that namespace owners cannot change (repeatable)', collect, [])
    .option('--namespace <name>', 'the namespace of objects that name none, as kubectl\'s (default: default)')
    .option('--pod-security-config <file>', "the cluster's PodSecurity admission configuration (PodSecurityConfiguration or AdmissionConfiguration): its defaults and exemptions")
    .option('-c, --config <file>', 'the config file (default: .admission-lint.yaml or .admission-lint.json in this folder or the nearest parent)')
    .option('--baseline <file>', 'report only findings that are not in this baseline file')
    .option('--write-baseline <file>', "record this run's findings in a baseline file (and exit 0)")
    .option('--no-inline-config', 'ignore suppression comments and annotations (for untrusted code)')
    .option('--no-config-lookup', 'read no .admission-lint.yaml unless --config names one (for untrusted code)')
    .option('--allow-empty', 'a run with no file to lint exits 0 instead of 2');
  addFixOptions(root.commands.find((command) => command.name() === 'lint')!)
    .action(async (paths: string[], flags: LintFlags, command: Command) =>
      setExit(await runLint(paths, flags, io, command.getOptionValueSource('failOn') === 'cli')),
    );

  root
    .command('defaults')
    .description('print the webhook configurations and admission policies with API defaults applied, each defaulted field marked "# default"')
    .addHelpText('after', examplesText('defaults'))
    .argument('[paths...]', 'files, folders, or - for stdin')
    .action((paths: string[]) => setExit(runDefaults(paths, io)));

  root
    .command('rules')
    .description('list the rules: id, default severity, kinds, title')
    .addHelpText('after', examplesText('rules'))
    .addOption(new Option('-f, --format <format>', 'output format').choices(['text', 'json']).default('text'))
    .action((flags: { format: 'text' | 'json' }) => setExit(runRules(flags, io)));

  root
    .command('config-schema')
    .description('print the JSON Schema of the config file (for editor completion)')
    .addHelpText('after', examplesText('config-schema'))
    .action(() => {
      io.stdout.write(configSchemaText(rules));
      setExit(EXIT.ok);
    });

  root
    .command('explain')
    .description("print a rule's documentation")
    .addHelpText('after', examplesText('explain'))
    .argument('<rule-id>')
    .option('--no-color', 'no colours (also: NO_COLOR, or when stdout is not a terminal)')
    .action((id: string, flags: { color: boolean }) => setExit(runExplain(id, flags, io)));

  // simulate and report parse their own flags; their modules load only when they run.
  for (const [name, description] of [
    ['simulate', 'print the admission path of one request: webhooks called, order, failure outcomes, worst-case latency (admission-lint simulate --help)'],
    ['report', 'print the blast-radius report: what each webhook intercepts and which critical resources it can block (admission-lint report --help)'],
    ['probe', 'call a webhook as the API server would and say what would happen (admission-lint probe --help)'],
  ] as const) {
    root
      .command(name)
      .description(description)
      .helpOption(false)
      .allowUnknownOption()
      .allowExcessArguments()
      .argument('[args...]')
      .action(async (args: string[]) => setExit(await runOwnFlagsCommand(name, args, io)));
  }

  // Parse errors name the command whose --help lists its options.
  for (const command of root.commands) command.configureOutput(parserOutput(io, command.name()));
  return root;
}

/** simulate and report: loaded only when they run; they parse their own flags (simulate's old --version spelling of --api-version among them). */
async function runOwnFlagsCommand(name: 'simulate' | 'report' | 'probe', args: readonly string[], io: Io): Promise<number> {
  if (name === 'probe') return (await import('./probe-command.js')).runProbeCommand(args, io);
  return name === 'simulate' ? (await import('./simulate-command.js')).runSimulateCommand(args, io) : (await import('./report-command.js')).runReportCommand(args, io);
}

export async function run(argv: readonly string[], io: Io): Promise<number> {
  let exitCode: number = EXIT.ok;
  try {
    if (argv[0] === 'simulate' || argv[0] === 'report' || argv[0] === 'probe') return await runOwnFlagsCommand(argv[0], argv.slice(1), io);
    await program(io, (code) => (exitCode = code)).parseAsync(argv, { from: 'user' });
    return exitCode;
  } catch (error) {
    if (error instanceof CommanderError) {
      // Help and --version are successes; every other commander error is a usage error.
      return error.code === 'commander.helpDisplayed' || error.code === 'commander.version' || error.code === 'commander.help' ? EXIT.ok : EXIT.fatal;
    }
    if (error instanceof UserError) {
      // Messages quote paths and values from the input: one line, no workflow command.
      io.stderr.write(guardText(`admission-lint: ${safeText(error.message)}\n`));
      if (error.hint) io.stderr.write(guardText(`  hint: ${safeText(error.hint)}\n`));
      return EXIT.fatal;
    }
    throw error;
  }
}
