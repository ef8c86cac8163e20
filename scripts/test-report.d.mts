// Types of test-report.mjs (plain JavaScript: npm test and .ci/run read it before anything is built).
export interface Failure {
  file: string;
  test: string;
  kind: string;
  message: string;
}
// biome-ignore lint/suspicious/noExplicitAny: a vitest JSON report as read from disk
type Report = any;
export function failuresOf(report: Report, status: number, why?: string): Failure[];
export function failureLines(label: string, report: Report, status: number, why?: string): string[];
export function summary(runs: { report: Report; status: number; why?: string }[]): string;
