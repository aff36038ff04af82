/** How serious a finding is, and what the user can make of it: the bottom layer every other one shares. */

export const SEVERITIES = ['error', 'warning', 'info'] as const;
export type Severity = (typeof SEVERITIES)[number];

/** A severity that replaces a rule's (`--rule id=warning`, the config's `rules:`), or 'off'. */
export type SeverityOverride = Severity | 'off';

/** The lowest severity that fails the run (`--fail-on`), or never. */
export type FailOn = Severity | 'never';
