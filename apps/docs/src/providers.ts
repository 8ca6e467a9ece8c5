/**
 * The provider catalogue, from `packages/providers/src/<id>/`: the id, name, type and docs link
 * as the providers' own generator reads them (one reader for every list of providers), and the
 * first paragraph of each provider's header TSDoc (where to register, the callback URL, quirks).
 */
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { pathToFileURL } from "node:url"
import { cell, code, escapeProse, generatedNotice } from "./markdown.js"

export interface ProviderEntry {
  id: string
  name: string
  type: "oauth" | "oidc" | "email" | "credentials" | "webauthn"
  docs: string
  /** The header's first paragraph, on one line. */
  summary: string
}

const TYPE_LABEL: Record<ProviderEntry["type"], string> = { oauth: "OAuth 2.0", oidc: "OpenID Connect", email: "Email link", credentials: "Credentials", webauthn: "Passkeys (WebAuthn)" }

/** The header comment's first paragraph, its ` * ` margins removed. */
function summaryOf(source: string): string {
  const header = /\/\*\*([\s\S]*?)\*\//.exec(source)?.[1] ?? ""
  const lines = header.split("\n").map((line) => line.replace(/^\s*\*\s?/, ""))
  const paragraph: string[] = []
  for (const line of lines.slice(lines[0]?.trim() === "" ? 1 : 0)) {
    if (line.trim() === "" || line.startsWith("@")) break
    paragraph.push(line.trim())
  }
  return paragraph.join(" ")
}

/** Every provider of `packages/providers` under `providersDir`, in id order. */
export async function readProviders(providersDir: string): Promise<ProviderEntry[]> {
  const generator = (await import(pathToFileURL(join(providersDir, "scripts", "generate.mjs")).href)) as { describeProviders: () => Omit<ProviderEntry, "summary">[] }
  return generator.describeProviders().map((provider) => ({ ...provider, summary: summaryOf(readFileSync(join(providersDir, "src", provider.id, "index.ts"), "utf8")) }))
}

/** The catalogue page: a table to scan, then one section per provider with its import. */
export function renderProviders(providers: readonly ProviderEntry[]): string {
  const pascal = (id: string): string => id.replace(/(^|-)([a-z0-9])/g, (_, _dash: string, letter: string) => letter.toUpperCase())
  const sections = providers.map((provider) =>
    [
      `### ${provider.name} {#${provider.id}}`,
      `${TYPE_LABEL[provider.type]} · ${code(`import ${pascal(provider.id)} from "@portcullis/providers/${provider.id}"`)} · [provider's docs](${provider.docs})`,
      escapeProse(provider.summary),
    ].join("\n\n"),
  )
  return [
    "---\noutline: false\n---",
    generatedNotice("packages/providers/src/<id>/index.ts"),
    "# Providers",
    `${String(providers.length)} providers, each one import from \`@portcullis/providers/<id>\`. Any other OpenID Connect provider works from its issuer URL (\`{ id, name, type: "oidc", issuer }\`). The client id and secret default to \`AUTH_<ID>_ID\` and \`AUTH_<ID>_SECRET\` (the id upper-cased, \`-\` as \`_\`); the callback URL to register is \`{AUTH_URL}/api/auth/callback/<id>\`. Adding one: \`pnpm new-provider <id>\`, as CONTRIBUTING.md's "Adding a provider" describes.`,
    ["| Provider | Id | Type |", "| --- | --- | --- |", ...providers.map((provider) => `| [${cell(escapeProse(provider.name))}](#${provider.id}) | ${code(provider.id)} | ${TYPE_LABEL[provider.type]} |`)].join("\n"),
    "## Each provider",
    ...sections,
    "",
  ].join("\n\n")
}
