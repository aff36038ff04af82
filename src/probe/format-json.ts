/**
 * `probe --format json`: {"webhook", "request", "target", "called", "checks": [{"id", "status",
 * "message"}], "verdict": {"kind", "message"}, "latencyMs", "patch", "objectAfter", "repeats",
 * "expect", "expectationMet", "failed"}. docs/probe.md describes each field.
 */
import { guardJson } from '../format/escape.js';
import type { ProbeReport } from './probe.js';
import { requestAttributesJson } from '../simulate/format-json.js';

export function formatJson(report: ProbeReport): string {
  const { request } = report;
  const json = {
    webhook: report.webhook,
    request: {
      ...requestAttributesJson(request),
      name: request.object?.name ?? null,
      dryRun: request.dryRun,
      userInfo: report.userInfo,
      reviewVersion: report.reviewVersion,
    },
    target: report.target,
    called: report.called,
    checks: report.checks,
    verdict: report.verdict,
    latencyMs: report.latencyMs === null ? null : Math.round(report.latencyMs),
    patch: report.patch,
    objectAfter: report.objectAfter,
    repeats: report.repeats,
    expect: report.expect,
    expectationMet: report.expectationMet,
    failed: report.failed,
  };
  return guardJson(`${JSON.stringify(json, null, 2)}\n`);
}
