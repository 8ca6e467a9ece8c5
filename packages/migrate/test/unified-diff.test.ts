import { describe, expect, it } from "vitest"
import { unifiedDiff } from "../src/unified-diff.js"

describe("unifiedDiff", () => {
  it("is empty for equal texts", () => {
    expect(unifiedDiff("a.ts", "x\n", "x\n")).toBe("")
  })

  it("gives separate hunks with three lines of context, old lines before new", () => {
    const before = Array.from({ length: 20 }, (_, index) => `line ${String(index + 1)}`).join("\n")
    const after = before.replace("line 2\n", "line two\n").replace("line 18\n", "line 18\nline 18b\n")
    expect(unifiedDiff("a.ts", before, after)).toBe(
      "--- a/a.ts\n+++ b/a.ts\n@@ -1,5 +1,5 @@\n line 1\n-line 2\n+line two\n line 3\n line 4\n line 5\n@@ -16,5 +16,6 @@\n line 16\n line 17\n line 18\n+line 18b\n line 19\n line 20\n",
    )
  })
})
