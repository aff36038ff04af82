/**
 * The "Examples:" section at the end of each command's --help. Every example is a command that
 * works as written in a project with manifests in `deploy/` (test/cli-help-examples.test.ts runs
 * each one; for a pipe, the admission-lint part with the manifests on stdin).
 */
import type { Command } from 'commander';

export interface Example {
  /** What it does, one short line. */
  readonly says: string;
  /** The command line, starting with `admission-lint` or a program whose output it reads. */
  readonly run: string;
}

export type ExampleCommand = 'admission-lint' | 'lint' | 'defaults' | 'rules' | 'explain' | 'config-schema' | 'simulate' | 'report' | 'probe';

export const EXAMPLES: Readonly<Record<ExampleCommand, readonly Example[]>> = {
  'admission-lint': [
    { says: 'lint a folder (recursively); exit 1 on errors', run: 'admission-lint deploy/' },
    { says: 'what a request goes through', run: 'admission-lint simulate deploy/ --operation CREATE --resource pods --namespace team-a' },
    { says: "a rule's documentation", run: 'admission-lint explain implicit-failure-policy' },
  ],
  lint: [
    { says: 'lint a folder (recursively); exit 1 on errors', run: 'admission-lint deploy/' },
    { says: 'lint rendered Helm output from stdin', run: 'helm template ./chart | admission-lint -' },
    { says: 'one line per finding, for editors and grep', run: 'admission-lint --format compact deploy/' },
    { says: 'a GitLab Code Quality report for merge requests', run: 'admission-lint --format gitlab --output gl-code-quality-report.json deploy/' },
    { says: 'errors only, but fail on warnings too', run: 'admission-lint -q --fail-on warning deploy/' },
    { says: 'change a rule: its severity and an option', run: 'admission-lint --rule long-timeout=warn --rule-option long-timeout.thresholdSeconds=10 deploy/' },
    { says: "record today's findings, then report only new ones", run: 'admission-lint --write-baseline .admission-lint-baseline.json deploy/' },
    { says: '', run: 'admission-lint --baseline .admission-lint-baseline.json deploy/' },
  ],
  defaults: [
    { says: 'show the API defaults of the webhooks in a folder', run: 'admission-lint defaults deploy/' },
    { says: 'of a kustomize overlay', run: 'kustomize build overlays/prod | admission-lint defaults -' },
  ],
  rules: [
    { says: 'the rules, their default severity and title', run: 'admission-lint rules' },
    { says: 'the same as JSON', run: 'admission-lint rules --format json' },
  ],
  explain: [{ says: "a rule's documentation: why, an example, the fix", run: 'admission-lint explain timeout-out-of-range' }],
  'config-schema': [{ says: 'save the schema for editor completion of .admission-lint.yaml', run: 'admission-lint config-schema > .admission-lint.schema.json' }],
  simulate: [
    { says: 'which webhooks a pod creation in team-a goes through', run: 'admission-lint simulate deploy/ --operation CREATE --resource pods --namespace team-a' },
    {
      says: 'a dry-run update of a Deployment, as JSON',
      run: 'admission-lint simulate deploy/ --operation UPDATE --group apps --api-version v1 --resource deployments --namespace team-a --dry-run --format json',
    },
    { says: 'with the labels of a namespace that is not in the files', run: 'admission-lint simulate deploy/ --operation CREATE --resource pods --namespace team-b --namespace-labels env=prod' },
  ],
  probe: [
    {
      says: 'call a webhook through kubectl port-forward as the API server would (exit 1 while nothing listens there)',
      run: 'admission-lint probe deploy/ --webhook inject.sidecar.example.com --operation CREATE --resource pods --namespace team-a --address 127.0.0.1:8443',
    },
    {
      says: 'in CI: exit 1 unless it denies, as JSON',
      run: 'admission-lint probe deploy/ --webhook pods.policy.example.com --operation CREATE --resource pods --namespace team-a --address 127.0.0.1:9443 --expect denied --format json',
    },
  ],
  report: [
    { says: 'what each webhook intercepts and which critical resources it can block', run: 'admission-lint report deploy/' },
    { says: 'one self-contained HTML file, for a CI artifact', run: 'admission-lint report --format html --output blast-radius.html deploy/' },
  ],
};

/** The section as help prints it: `# what`, then `$ command`, an empty `says` continuing the one before. */
export function examplesText(name: ExampleCommand): string {
  const lines = ['', 'Examples:'];
  for (const example of EXAMPLES[name]) {
    if (example.says !== '') lines.push(`  # ${example.says}`);
    lines.push(`  $ ${example.run}`);
  }
  return `${lines.join('\n')}\n`;
}

export function withExamples(command: Command, name: ExampleCommand): Command {
  return command.addHelpText('after', examplesText(name));
}
