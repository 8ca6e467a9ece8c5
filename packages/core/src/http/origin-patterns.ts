/**
 * The compiler of `allowedOrigins` entries, loaded with the configuration checks of rarely set
 * options (`config/normalise-rare.ts`): an app that lists no extra origin never carries it.
 */
import { Configuration } from "../errors/errors.js"
import type { OriginPattern } from "./origins.js"

const LABEL_CHARS = "[a-z0-9-]+"

/**
 * Compiles one `allowedOrigins` entry: `https://app.example.com`, `https://*.preview.example.com`
 * or `https://my-app-*.vercel.app`. `*` stands for letters, digits and `-` inside the first label
 * only, so it never spans a dot: `https://*.example.com` does not admit `https://a.b.example.com`.
 *
 * @throws {Configuration} naming the option when the entry is not such an origin.
 */
export function compileOriginPattern(entry: unknown, option: string): OriginPattern {
  if (typeof entry !== "string") throw new Configuration(`\`${option}\` must be an origin string such as "https://*.preview.example.com".`)
  const match = /^(https?):\/\/([^/:?#]+)(?::(\d{1,5}))?\/?$/.exec(entry.trim().toLowerCase())
  const host = match?.[2]
  if (match === null || host === undefined) {
    throw new Configuration(`\`${option}\` ("${entry}") must be an origin: scheme, host and optional port, such as "https://*.preview.example.com".`)
  }
  const [first = "", ...rest] = host.split(".")
  if (rest.some((label) => label.includes("*")) || (first.includes("*") && rest.length < 2)) {
    throw new Configuration(`\`${option}\` ("${entry}") may use \`*\` only in the first label of a host with at least two more labels.`)
  }
  if (!/^[a-z0-9*-]+$/.test(first) || !rest.every((label) => /^[a-z0-9-]+$/.test(label))) {
    throw new Configuration(`\`${option}\` ("${entry}") has a host that is not a plain DNS name.`)
  }
  const scheme = match[1] ?? "https"
  const port = match[3] === undefined || match[3] === (scheme === "https" ? "443" : "80") ? "" : `:${match[3]}`
  const escape = (text: string): string => text.replace(/[.-]/g, (char) => `\\${char}`)
  const firstPattern = first.split("*").map(escape).join(LABEL_CHARS)
  const regex = new RegExp(`^${scheme}://${firstPattern}${rest.length > 0 ? `\\.${rest.map(escape).join("\\.")}` : ""}${port}$`)
  return { source: entry, test: (origin) => regex.test(origin) }
}
