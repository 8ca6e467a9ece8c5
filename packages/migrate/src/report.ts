/** The report the command prints. */
import type { ManualStep, MigrationReport } from "./index.js"

function days(seconds: number): string {
  const value = seconds / 86_400
  return `${Number.isInteger(value) ? String(value) : value.toFixed(2)} day${value === 1 ? "" : "s"}`
}

function located(steps: readonly ManualStep[]): string[] {
  return steps.map((step) => `  ${step.file}:${String(step.line)}:${String(step.column)}: ${step.step}`)
}

/**
 * The command's output for a report: the parse errors, or the steps that must come first, or the files changed (with their diffs in
 * a dry run), the Auth.js session cookie windows and the manual steps left.
 */
export function formatReport(report: MigrationReport, options: { dryRun: boolean }): string {
  const lines: string[] = []
  if (report.parseErrors.length > 0) {
    lines.push(`Could not parse ${String(report.parseErrors.length)} file(s); nothing was changed:`)
    for (const error of report.parseErrors) lines.push(`  ${error.file}:${String(error.line)}:${String(error.column)}: ${error.message}`)
    return `${lines.join("\n")}\n`
  }
  if (report.blockers.length > 0) {
    lines.push(`Nothing was changed: npm would refuse to install Portcullis beside ${report.blockers.length === 1 ? "this version" : "these versions"} of the app's frameworks. First:`, ...located(report.blockers), "Then run the codemod again.")
    return `${lines.join("\n")}\n`
  }
  if (options.dryRun) for (const { diff } of report.changed) lines.push(diff.trimEnd())
  if (report.changed.length === 0) lines.push("No file needed a change.")
  else {
    lines.push(`${options.dryRun ? "Would change" : "Changed"} ${String(report.changed.length)} file(s)${options.dryRun ? " (dry run: nothing written)" : ""}:`)
    for (const { file } of report.changed) lines.push(`  ${file}`)
  }
  if (report.notes.length > 0) lines.push(`To check (${String(report.notes.length)}):`, ...located(report.notes))
  for (const window of report.legacySessionCookies) {
    const from = window.maxAgeFrom === "config" ? "its session.maxAge" : "Auth.js's default session maxAge"
    lines.push(`Auth.js's session cookies stay accepted until ${window.until} (today + ${from}, ${days(window.maxAge)}): legacySessionCookies set in ${window.file}:${String(window.line)}. If you deploy later than today, move the date by as much.`)
  }
  if (report.manual.length === 0) lines.push("No manual step left.")
  else {
    lines.push(`Manual steps left (${String(report.manual.length)}):`)
    lines.push(...located(report.manual))
  }
  if (report.written && report.changed.some(({ file }) => file.endsWith("package.json"))) {
    lines.push("Then install the new dependencies with your package manager (npm install, pnpm install, yarn).")
  }
  return `${lines.join("\n")}\n`
}
