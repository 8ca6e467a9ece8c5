import { createRequire } from "node:module"
import { describe, expect, it } from "vitest"
import { workspace } from "../src/workspace.js"

const require = createRequire(import.meta.url)

describe("the facts baked in at build time", () => {
  it.each(["@portcullis/core", "@portcullis/nextjs", "@portcullis/express", "@portcullis/providers"])("hold %s's version", (name) => {
    expect(workspace.versions[name]).toBe((require(`${name}/package.json`) as { version: string }).version)
  })

  it.each(["@portcullis/core", "@portcullis/core/jwt", "@portcullis/core/errors", "@portcullis/nextjs", "@portcullis/nextjs/react", "@portcullis/express"])("list every value %s exports at run time", async (specifier) => {
    const runtime = Object.keys((await import(specifier)) as object)
    expect(runtime.length).toBeGreaterThan(0)
    expect(workspace.exports[specifier]).toEqual(expect.arrayContaining(runtime))
  })

  it("list the types an app imports from next-auth v5", () => {
    expect(workspace.exports["@portcullis/nextjs"]).toEqual(expect.arrayContaining(["default", "NextAuthConfig", "DefaultSession", "Session", "User", "AuthError", "CredentialsSignin"]))
    expect(workspace.exports["@portcullis/core/jwt"]).toEqual(expect.arrayContaining(["JWT", "getToken", "encode", "decode"]))
  })

  it("know every provider folder", () => {
    const ids = Object.keys((require("@portcullis/providers/package.json") as { exports: Record<string, unknown> }).exports).filter((key) => key !== "." && key !== "./package.json").map((key) => key.slice(2))
    expect(workspace.entries["@portcullis/providers"]).toEqual(expect.arrayContaining(ids))
    expect(ids).toEqual(expect.arrayContaining(["github", "credentials", "passkey", "nodemailer"]))
  })
})
