/**
 * `pnpm dev`'s start-up on a fresh clone, in a temp dir instead of the checkout: the first start
 * saves a new AUTH_SECRET in `.env` and warns about nothing, the next start uses the same one (so
 * sessions outlive a restart), and production never gets a made-up secret.
 */
import { copyFileSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, describe, expect, it } from "vitest"

import { startExample } from "../src/app.js"
import { readDevEnv } from "../src/dev-env.js"
import { SettingsError, type Env } from "../src/settings.js"

const dir = mkdtempSync(join(tmpdir(), "example-dev-env-"))
afterAll(() => {
  rmSync(dir, { recursive: true, force: true })
})

let files = 0
/** A path for a `.env` of its own in the temp dir, not yet created. */
function envFile(): string {
  return join(dir, `${String(++files)}.env`)
}

/** `pnpm dev`'s start-up with `file` and `shell`, on free ports: the secret it used and what it warned. */
async function startUp(file: string, shell: Env): Promise<{ secret: string | undefined; secretSaved: boolean; warnings: string[] }> {
  const { env, secretSaved } = readDevEnv(file, shell)
  const warnings: string[] = []
  const example = await startExample({ env, port: 0, idpPort: 0, warn: (message) => warnings.push(message) })
  await example.close()
  return { secret: env.AUTH_SECRET, secretSaved, warnings }
}

describe("pnpm dev's first start", () => {
  it("saves a new AUTH_SECRET in .env without a warning, and the next start uses the same one", async () => {
    const file = envFile()
    const first = await startUp(file, {})
    expect(first).toEqual({ secret: expect.stringMatching(/^[\w-]{43}$/) as unknown, secretSaved: true, warnings: [] })
    expect(readFileSync(file, "utf8")).toContain(`\nAUTH_SECRET=${String(first.secret)}\n`)
    expect(statSync(file).mode & 0o777).toBe(0o600)

    const second = await startUp(file, {})
    expect(second).toEqual({ secret: first.secret, secretSaved: false, warnings: [] })
  })

  it("fills the empty AUTH_SECRET= line of a copied .env.example, leaving the other lines as they were", () => {
    const file = envFile()
    copyFileSync(join(import.meta.dirname, "..", ".env.example"), file)
    const before = readFileSync(file, "utf8")
    const { env, secretSaved } = readDevEnv(file, { AUTH_SESSION_STRATEGY: "jwt" })
    expect(secretSaved).toBe(true)
    expect(readFileSync(file, "utf8")).toBe(before.replace(/^AUTH_SECRET=$/m, `AUTH_SECRET=${String(env.AUTH_SECRET)}`))
    expect(env.AUTH_SESSION_STRATEGY).toBe("jwt")
  })

  it("adds the line to a .env without one, and the shell's variables win over the file's", () => {
    const file = envFile()
    writeFileSync(file, "PORT=3001\nDEMO_USER_PASSWORD=from-the-file")
    const { env, secretSaved } = readDevEnv(file, { PORT: "3002" })
    expect(secretSaved).toBe(true)
    expect(readFileSync(file, "utf8")).toBe(`PORT=3001\nDEMO_USER_PASSWORD=from-the-file\nAUTH_SECRET=${String(env.AUTH_SECRET)}\n`)
    expect(env).toMatchObject({ PORT: "3002", DEMO_USER_PASSWORD: "from-the-file" })
  })

  it("writes nothing when the shell sets AUTH_SECRET", () => {
    const file = envFile()
    expect(readDevEnv(file, { AUTH_SECRET: "a-secret-from-the-shell-of-32-chars!" })).toMatchObject({ secretSaved: false, loaded: false })
    expect(() => statSync(file)).toThrow(/ENOENT/)
  })

  it("refuses a production start without AUTH_SECRET, and writes none", async () => {
    const file = envFile()
    const { env, secretSaved } = readDevEnv(file, { NODE_ENV: "production" })
    expect(secretSaved).toBe(false)
    expect(() => statSync(file)).toThrow(/ENOENT/)
    await expect(startExample({ env, port: 0, idpPort: 0, warn: () => undefined })).rejects.toThrow(SettingsError)
    await expect(startExample({ env, port: 0, idpPort: 0, warn: () => undefined })).rejects.toThrow(/^AUTH_SECRET is not set\. With NODE_ENV=production/)
  })
})
