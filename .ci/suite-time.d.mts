// Types of suite-time.mjs, for the test that checks its parsing (packages/test-time/test/suite-time.test.ts).

/** Seconds per package and task (`test`, `lint`, `typecheck`, `build`), and turbo's wall time. */
export interface SuiteTimes {
  packages: Record<string, Record<string, number>>
  wallSeconds: number
}

export const COLUMNS: readonly string[]
export function summaryPath(log: string): string | undefined
export function suiteTimes(summary: unknown): SuiteTimes
export function formatTable(times: SuiteTimes, budget: { totalSeconds: number }, runSeconds: number): string
export function readBudget(parsed: unknown): { totalSeconds: number }
export function main(args: string[]): number
