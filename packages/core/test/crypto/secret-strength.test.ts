/**
 * A secret may not be a placeholder our docs show (anyone could mint a session under it), and a
 * weak one is warned about, refused under NODE_ENV=production: at start through `Auth()`, and
 * by `@portcullis/core/jwt` used on its own.
 */
import { randomBytes } from "node:crypto"
import { readdirSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { afterEach, describe, expect, it, vi } from "vitest"
import { Auth } from "../../src/index.js"
import { decode, encode, getToken } from "../../src/session/jwt.js"
import { describeWeakness } from "../../src/crypto/secret-refusals.js"
import { estimateSecretBits, PLACEHOLDER_SECRETS, secretWeakness } from "../../src/crypto/secret-strength.js"
import type { AuthConfig } from "../../src/types.js"
import { ORIGIN, testConfig } from "../helpers.js"

const ROOT = join(import.meta.dirname, "..", "..", "..", "..")
const README_PLACEHOLDER = "replace-me-with-the-output-of-openssl-rand-base64-32"
const STRONG = randomBytes(32).toString("base64")
const COOKIE = "authjs.session-token"

afterEach(() => {
  vi.unstubAllEnvs()
})

/** `Auth()`'s answer to a session read under `config`, and what it logged. */
async function start(config: AuthConfig): Promise<{ response: Response; errors: string[]; warnings: string[] }> {
  const errors: string[] = []
  const warnings: string[] = []
  const response = await Auth(new Request(`${ORIGIN}/api/auth/session`), { ...config, logger: { error: (error) => errors.push(`${error.name}: ${error.message}`), warn: (code, message) => warnings.push(`${code}: ${message ?? ""}`) } })
  return { response, errors, warnings }
}

describe("a placeholder secret from our docs", () => {
  it("is refused at start as a Configuration error, also in production and as an entry of a rotation array (ASVS 9.1.1)", async () => {
    for (const [secret, env] of [
      [README_PLACEHOLDER, "development"],
      [README_PLACEHOLDER, "production"],
      [[STRONG, README_PLACEHOLDER], "production"],
    ] as const) {
      vi.stubEnv("NODE_ENV", env)
      const { response, errors } = await start(testConfig({ secret: secret as string | string[] }))
      expect(response.status, `${String(secret)} under ${env}`).toBe(503)
      expect(await response.json()).toMatchObject({ error: "Configuration" })
      expect(errors.join("\n")).toMatch(/placeholder our documentation shows.*openssl rand -base64 32/)
    }
  })

  it("is refused from AUTH_SECRET, naming the variable", async () => {
    vi.stubEnv("AUTH_SECRET", README_PLACEHOLDER)
    const { secret: _unused, ...config } = testConfig()
    const { response, errors } = await start(config)
    expect(response.status).toBe(503)
    expect(errors.join("\n")).toMatch(/^Configuration: AUTH_SECRET is the placeholder/)
  })

  it("seals and opens nothing in @portcullis/core/jwt: no session JWT can be minted under it (ASVS 9.1.1)", async () => {
    await expect(encode({ token: { email: "admin@example.com" }, secret: README_PLACEHOLDER, salt: COOKIE })).rejects.toMatchObject({ code: "Configuration" })
    const forged = await encode({ token: { email: "admin@example.com" }, secret: STRONG, salt: COOKIE })
    await expect(decode({ token: forged, secret: [STRONG, README_PLACEHOLDER], salt: COOKIE })).rejects.toMatchObject({ code: "Configuration" })
    await expect(getToken({ req: { headers: { cookie: `${COOKIE}=${forged}` } }, secret: README_PLACEHOLDER })).rejects.toMatchObject({ code: "Configuration" })
  })

  it("lists every value a doc in the repository shows for `secret`, AUTH_SECRET or NEXTAUTH_SECRET", () => {
    const shown = new Map<string, string>()
    let lines = 0
    for (const file of docFiles(ROOT)) {
      const text = readFileSync(file, "utf8")
      for (const match of text.matchAll(/\b(?:NEXT)?AUTH_SECRET[ \t]*=[ \t]*["']?([^\s"'#`]*)|(?<![\w.])secret:[ \t]*["'`]([^"'`]*)["'`]/g)) {
        lines++
        const value = match[1] ?? match[2] ?? ""
        if (value !== "") shown.set(value, file)
      }
    }
    // The scan itself is checked: the README's and the Next.js README's .env lines are found.
    expect(lines).toBeGreaterThanOrEqual(2)
    for (const [value, file] of shown) expect(PLACEHOLDER_SECRETS, `${file} shows ${value}: add it to PLACEHOLDER_SECRETS`).toContain(value)
  })
})

/** Every doc and example file a reader copies from: Markdown anywhere, and `.env` examples. */
function docFiles(dir: string): string[] {
  const out: string[] = []
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (["node_modules", ".git", ".turbo", "dist", ".apps", ".next"].includes(entry.name)) continue
    const path = join(dir, entry.name)
    if (entry.isDirectory()) out.push(...docFiles(path))
    else if (/\.mdx?$|^\.env\.[\w.-]*example$/.test(entry.name)) out.push(path)
  }
  return out
}

describe("a weak secret", () => {
  const words = "my-app-session-key-for-production-2026"

  it("is warned about outside production, without any of it in the message", async () => {
    vi.stubEnv("NODE_ENV", "development")
    const { response, warnings } = await start(testConfig({ secret: words }))
    expect(response.status).toBe(200)
    expect(warnings).toEqual([expect.stringMatching(/^WeakSecret: `secret` is weak \(it is estimated at 76 bits, under 256; .*openssl rand -base64 32/)])
    expect(warnings.join("\n")).not.toContain("session-key")
  })

  it("is refused with NODE_ENV=production, also as the second entry of a rotation array", async () => {
    vi.stubEnv("NODE_ENV", "production")
    for (const secret of [words, "a".repeat(64), [STRONG, "0123456789abcdef".repeat(4)]]) {
      const { response, errors } = await start(testConfig({ secret }))
      expect(response.status, String(secret)).toBe(503)
      expect(errors.join("\n")).toMatch(/^Configuration: .*is weak \(.*With NODE_ENV=production a weak secret is refused\./)
    }
  })

  it("is not what `openssl rand -base64 32`, `openssl rand -hex 32` or 32 random bytes in base64url give: accepted in production, without a warning", async () => {
    vi.stubEnv("NODE_ENV", "production")
    for (let round = 0; round < 200; round++) {
      const bytes = randomBytes(32)
      for (const secret of [bytes.toString("base64"), bytes.toString("hex"), bytes.toString("base64url")]) expect(secretWeakness(secret), secret).toBeUndefined()
    }
    const { response, warnings } = await start(testConfig({ secret: [STRONG, randomBytes(32).toString("hex")] }))
    expect(response.status).toBe(200)
    expect(warnings).toEqual([])
  })

  it("is estimated by its alphabet and what it does not repeat", () => {
    expect(estimateSecretBits("ab".repeat(40))).toBe(8)
    expect(estimateSecretBits("Xy7-".repeat(20))).toBe(24)
    expect(estimateSecretBits(randomBytes(32).toString("hex"))).toBe(256)
    expect(estimateSecretBits(randomBytes(32).toString("base64"))).toBe(258)
    const why = (secret: string): string | undefined => {
      const weakness = secretWeakness(secret)
      return weakness === undefined ? undefined : describeWeakness(weakness)
    }
    expect(why("aaaaaaaaaaAAAAAAAAAA1111111111bbbbbbbbbbBBBBBBBBBB")).toMatch(/fewer than 10 different characters/)
    expect(why("ThisIsOurProductionSecretForTheWholeCompany2026Please")).toMatch(/the word "secret"/)
    expect(why("short")).toMatch(/fewer than 10|estimated at/)
    expect(why("my-app-session-key-for-production-2026")).toBe("it is estimated at 76 bits, under 256")
  })
})
