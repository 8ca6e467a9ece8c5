/** How many unchanged lines a hunk shows around a change, as `diff -u` does. */
const CONTEXT = 3

type Line = { kind: " " | "-" | "+"; text: string }

/** The edit script between two line lists: longest common subsequence over the changed middle. */
function lineScript(before: string[], after: string[]): Line[] {
  let prefix = 0
  while (prefix < before.length && prefix < after.length && before[prefix] === after[prefix]) prefix++
  let suffix = 0
  while (suffix < before.length - prefix && suffix < after.length - prefix && before[before.length - 1 - suffix] === after[after.length - 1 - suffix]) suffix++
  const a = before.slice(prefix, before.length - suffix)
  const b = after.slice(prefix, after.length - suffix)
  // lengths[i][j]: the longest common subsequence of a[i..] and b[j..].
  const lengths = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0))
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) {
      const row = lengths[i] ?? []
      row[j] = a[i] === b[j] ? (lengths[i + 1]?.[j + 1] ?? 0) + 1 : Math.max(lengths[i + 1]?.[j] ?? 0, row[j + 1] ?? 0)
    }
  }
  const middle: Line[] = []
  let i = 0
  let j = 0
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) {
      middle.push({ kind: " ", text: a[i] ?? "" })
      i++
      j++
    } else if (i < a.length && (j === b.length || (lengths[i + 1]?.[j] ?? 0) >= (lengths[i]?.[j + 1] ?? 0))) {
      middle.push({ kind: "-", text: a[i] ?? "" })
      i++
    } else {
      middle.push({ kind: "+", text: b[j] ?? "" })
      j++
    }
  }
  const same = (text: string): Line => ({ kind: " ", text })
  return [...before.slice(0, prefix).map(same), ...middle, ...before.slice(before.length - suffix).map(same)]
}

/**
 * A unified diff (`--- a/<name>`, `+++ b/<name>`, `@@` hunks with three lines of context) from
 * `before` to `after`; empty when they are equal.
 */
export function unifiedDiff(name: string, before: string, after: string): string {
  if (before === after) return ""
  const script = lineScript(before.split("\n"), after.split("\n"))
  const changed = script.flatMap((line, index) => (line.kind === " " ? [] : [index]))
  const hunks: string[] = []
  let index = 0
  while (index < changed.length) {
    const first = changed[index] ?? 0
    let last = first
    // A hunk takes every change whose context touches the previous one's.
    while (index + 1 < changed.length && (changed[index + 1] ?? 0) - last <= 2 * CONTEXT) last = changed[++index] ?? last
    index++
    const from = Math.max(0, first - CONTEXT)
    const to = Math.min(script.length, last + CONTEXT + 1)
    const lines = script.slice(from, to)
    const oldStart = script.slice(0, from).filter((line) => line.kind !== "+").length + 1
    const newStart = script.slice(0, from).filter((line) => line.kind !== "-").length + 1
    const oldCount = lines.filter((line) => line.kind !== "+").length
    const newCount = lines.filter((line) => line.kind !== "-").length
    hunks.push(`@@ -${oldStart},${oldCount} +${newStart},${newCount} @@\n${lines.map((line) => line.kind + line.text).join("\n")}`)
  }
  return `--- a/${name}\n+++ b/${name}\n${hunks.join("\n")}\n`
}
