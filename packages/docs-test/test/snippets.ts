/**
 * The code blocks a markdown file marks as snippets: `<!-- snippet: <framework>/<file> -->` on the
 * line before a fenced block names the file the block is, in the project of that framework.
 * `shared/<file>` belongs to every framework's project; `<framework>/install` is the install
 * commands.
 */
import { randomBytes } from "node:crypto"
import { readFileSync } from "node:fs"

/** One marked block. */
export interface Snippet {
  /** `express`, `shared`, ... */
  framework: string
  /** The file's path in the project (`server.ts`, `app/page.tsx`), or `install`. */
  file: string
  /** The block's text, exactly, with a final newline. */
  text: string
  /** The markdown file and line of the marker, for messages. */
  where: string
}

const MARKER = /^<!-- snippet: ([a-z0-9-]+)\/(\S+) -->$/

/**
 * Reads every marked block of `path`.
 *
 * @throws Error when a marker is not followed by a fenced block, or a name is marked twice.
 */
export function readSnippets(path: string): Snippet[] {
  const lines = readFileSync(path, "utf8").split("\n")
  const snippets: Snippet[] = []
  lines.forEach((line, index) => {
    const marker = MARKER.exec(line)
    if (marker === null) return
    const where = `${path}:${String(index + 1)}`
    const fence = /^(```+)\w*$/.exec(lines[index + 1] ?? "")
    if (fence === null) throw new Error(`${where}: the snippet marker must be followed by a fenced code block`)
    const end = lines.findIndex((candidate, at) => at > index + 1 && candidate === fence[1])
    if (end === -1) throw new Error(`${where}: the snippet's code block is never closed`)
    const [framework = "", file = ""] = [marker[1], marker[2]]
    if (snippets.some((other) => other.framework === framework && other.file === file)) throw new Error(`${where}: ${framework}/${file} is marked twice`)
    snippets.push({ framework, file, text: `${lines.slice(index + 2, end).join("\n")}\n`, where })
  })
  return snippets
}

/**
 * One list of snippets from several files (the READMEs, the site's pages): a file marked in more
 * than one is kept once, from the first.
 *
 * @throws Error naming both places when two of them mark the same file with different text.
 */
export function mergeSnippets(sources: readonly (readonly Snippet[])[]): Snippet[] {
  const merged = new Map<string, Snippet>()
  for (const snippet of sources.flat()) {
    const name = `${snippet.framework}/${snippet.file}`
    const kept = merged.get(name)
    if (kept === undefined) merged.set(name, snippet)
    else if (kept.text !== snippet.text) throw new Error(`${name} differs: ${kept.where} and ${snippet.where} must show the same text`)
  }
  return [...merged.values()]
}

/**
 * The fenced blocks of `path` that no snippet marker names, by `path:line`: a code block the test
 * never runs. Shell blocks (commands to type) are left out.
 */
export function unmarkedBlocks(path: string): string[] {
  const lines = readFileSync(path, "utf8").split("\n")
  const unmarked: string[] = []
  for (let index = 0; index < lines.length; index++) {
    const fence = /^(```+)(\w*)/.exec(lines[index] ?? "")
    if (fence === null) continue
    const [, ticks = "", language = ""] = fence
    if (!MARKER.test(lines[index - 1] ?? "") && !["sh", "bash", "shell"].includes(language)) unmarked.push(`${path}:${String(index + 1)}`)
    const end = lines.findIndex((candidate, at) => at > index && candidate === ticks)
    index = end === -1 ? lines.length : end
  }
  return unmarked
}

/**
 * The files of `framework`'s project: the shared ones (unless `shared` is false: a Next.js app is
 * create-next-app's, not the README's node project), then its own (which win), install lines excluded.
 */
export function projectFiles(snippets: readonly Snippet[], framework: string, { shared = true }: { shared?: boolean } = {}): Map<string, string> {
  const files = new Map<string, string>()
  for (const scope of shared ? ["shared", framework] : [framework]) {
    for (const snippet of snippets) if (snippet.framework === scope && snippet.file !== "install") files.set(snippet.file, snippet.text)
  }
  return files
}

/** The command the .env snippets name for AUTH_SECRET, whose output the reader pastes. */
const SECRET_COMMAND = "openssl rand -base64 32"

/**
 * A file as the reader has it once they followed it: an `.env` file's empty `AUTH_SECRET=`, left
 * empty with the command named on the line above, holds that command's output (32 random bytes
 * in base64). Other files are as written.
 *
 * @throws Error when an `.env` file shows a value for AUTH_SECRET (core refuses a placeholder) or
 * leaves it empty without naming the command.
 */
export function asFilledIn(file: string, text: string): string {
  if (!/(^|\/)\.env(\.\w+)?$/.test(file)) return text
  const lines = text.split("\n")
  return lines
    .map((line, index) => {
      if (!line.startsWith("AUTH_SECRET=")) return line
      if (line !== "AUTH_SECRET=") throw new Error(`${file}: AUTH_SECRET must be left empty for the reader, not ${line}`)
      if (!(lines[index - 1] ?? "").includes(SECRET_COMMAND)) throw new Error(`${file}: name \`${SECRET_COMMAND}\` on the line above the empty AUTH_SECRET=`)
      return `AUTH_SECRET=${randomBytes(32).toString("base64")}`
    })
    .join("\n")
}

/** What an install block's `npm install` lines name, split into dependencies and devDependencies. */
export function installedPackages(snippet: Snippet): { dependencies: string[]; devDependencies: string[] } {
  const dependencies: string[] = []
  const devDependencies: string[] = []
  for (const line of snippet.text.split("\n").filter((candidate) => candidate.trim() !== "")) {
    const words = line.trim().split(/\s+/)
    if (words[0] !== "npm" || (words[1] !== "install" && words[1] !== "i")) throw new Error(`${snippet.where}: not an npm install line: ${line}`)
    const dev = words.includes("--save-dev") || words.includes("-D")
    const names = words.slice(2).filter((word) => !word.startsWith("-"))
    ;(dev ? devDependencies : dependencies).push(...names)
  }
  return { dependencies, devDependencies }
}

/** The packages a TypeScript file imports (bare specifiers; `node:` built-ins and create-next-app's `@/` alias left out), by package name. */
export function importedPackages(source: string): string[] {
  const names = new Set<string>()
  for (const [, specifier = ""] of source.matchAll(/^\s*import\s[^"']*["']([^"']+)["']/gm)) {
    if (specifier.startsWith(".") || specifier.startsWith("node:") || specifier.startsWith("@/")) continue
    const parts = specifier.split("/")
    names.add(specifier.startsWith("@") ? parts.slice(0, 2).join("/") : (parts[0] ?? specifier))
  }
  return [...names]
}
