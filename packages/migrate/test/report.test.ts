/** The printed report: what the command says, in order. */
import { describe, expect, it } from "vitest"
import { migrate } from "../src/index.js"
import { formatReport } from "../src/report.js"
import { NOW, writeProject } from "./projects.js"

describe("formatReport", () => {
  it("lists what was rewritten but reads differently now under To check, after the files changed", () => {
    const dir = writeProject({ "src/lib/footer.svelte": `<script>\n  import pkg from "@auth/sveltekit/package.json"\n</script>\n<p>@auth/sveltekit@{pkg.version}</p>\n` })
    const output = formatReport(migrate({ dir, now: NOW }), { dryRun: false })
    expect(output).toMatch(/^Changed 1 file\(s\):\n {2}src\/lib\/footer\.svelte\nTo check \(1\):\n {2}src\/lib\/footer\.svelte:2:19: "@auth\/sveltekit\/package\.json" now reads @portcullis\/sveltekit's package\.json/)
  })
})
