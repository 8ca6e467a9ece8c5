/**
 * The script of a Svelte component, for TypeScript's parser: the `<script>` blocks (the instance
 * script and the module one, `context="module"` or `module`) kept in place, everything else
 * blanked. Positions in it are positions in the component, so edits and lines need no mapping.
 */

/** A `<script>` block of a component: where its content is, and its `lang`. */
interface ScriptBlock {
  start: number
  end: number
  lang: string | undefined
}

/** The end of a start tag beginning at `from` (after its `>`), skipping quoted attribute values, which may hold `>` (`generics="T extends Map<K, V>"`). */
function tagEnd(text: string, from: number): number {
  let quote: string | undefined
  for (let at = from; at < text.length; at++) {
    const char = text[at]
    if (quote !== undefined) {
      if (char === quote) quote = undefined
    } else if (char === '"' || char === "'") quote = char
    else if (char === ">") return at + 1
  }
  return text.length
}

/** The end of a string literal of a markup expression opening at `from` (after its closing quote). */
function stringEnd(text: string, from: number): number {
  const quote = text[from]
  for (let at = from + 1; at < text.length; at++) {
    if (text[at] === "\\") at++
    else if (text[at] === quote) return at + 1
  }
  return text.length
}

function langOf(tag: string): string | undefined {
  const match = /\slang\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>/]+))/u.exec(tag)
  return match === null ? undefined : (match[1] ?? match[2] ?? match[3])
}

/**
 * The top-level `<script>` blocks of a component: not in a comment, `<style>`, `<svelte:head>`
 * (a `<script>` there is the page's, JSON-LD say) or a `{...}` expression of the markup.
 */
function scriptBlocks(text: string): ScriptBlock[] {
  const blocks: ScriptBlock[] = []
  const lower = text.toLowerCase()
  let depth = 0
  let at = 0
  while (at < text.length) {
    const char = text[at]
    if (depth > 0 && (char === '"' || char === "'" || char === "`")) {
      at = stringEnd(text, at)
      continue
    }
    if (char === "{" || char === "}") depth = Math.max(0, depth + (char === "{" ? 1 : -1))
    if (char !== "<" || depth > 0) {
      at++
      continue
    }
    if (lower.startsWith("<!--", at)) {
      const close = lower.indexOf("-->", at + 4)
      at = close === -1 ? text.length : close + 3
      continue
    }
    const name = /^<(script|style|svelte:head)(?=[\s/>])/u.exec(lower.slice(at, at + 13))?.[1]
    if (name === undefined) {
      at++
      continue
    }
    const start = tagEnd(text, at)
    if (text[start - 2] === "/") {
      at = start
      continue
    }
    const close = lower.indexOf(`</${name}`, start)
    const end = close === -1 ? text.length : close
    if (name === "script") blocks.push({ start, end, lang: langOf(text.slice(at, start)) })
    at = end + 2
  }
  return blocks
}

/**
 * The component's script code in place (everything outside its `<script>` blocks replaced by
 * spaces, line breaks kept), and whether it is TypeScript (`lang="ts"`).
 */
export function svelteScript(text: string): { code: string; typescript: boolean } {
  const blocks = scriptBlocks(text)
  let code = ""
  let at = 0
  // By UTF-16 unit, as TypeScript counts positions.
  const blank = (from: number, to: number): string => {
    let spaces = ""
    for (let index = from; index < to; index++) {
      const char = text.charAt(index)
      spaces += char === "\n" || char === "\r" ? char : " "
    }
    return spaces
  }
  for (const block of blocks) {
    code += blank(at, block.start) + text.slice(block.start, block.end)
    at = block.end
  }
  code += blank(at, text.length)
  return { code, typescript: blocks.some(({ lang }) => lang === "ts" || lang === "typescript") }
}
