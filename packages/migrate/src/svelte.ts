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

function langOf(tag: string): string | undefined {
  const match = /\slang\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>/]+))/u.exec(tag)
  return match === null ? undefined : (match[1] ?? match[2] ?? match[3])
}

/** The top-level `<script>` blocks of a component, outside comments and `<style>`. */
function scriptBlocks(text: string): ScriptBlock[] {
  const blocks: ScriptBlock[] = []
  const lower = text.toLowerCase()
  let at = 0
  while (at < text.length) {
    const open = lower.indexOf("<", at)
    if (open === -1) break
    if (lower.startsWith("<!--", open)) {
      const close = lower.indexOf("-->", open + 4)
      at = close === -1 ? text.length : close + 3
      continue
    }
    const name = /^<(script|style)(?=[\s/>])/u.exec(lower.slice(open, open + 8))?.[1]
    if (name === undefined) {
      at = open + 1
      continue
    }
    const start = tagEnd(text, open)
    if (text[start - 2] === "/") {
      at = start
      continue
    }
    const close = lower.indexOf(`</${name}`, start)
    const end = close === -1 ? text.length : close
    if (name === "script") blocks.push({ start, end, lang: langOf(text.slice(open, start)) })
    at = end
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
