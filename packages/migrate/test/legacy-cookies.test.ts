/** legacySessionCookies: where the codemod finds the auth config, the date it writes, and that it writes it once. */
import { describe, expect, it } from "vitest"
import { migrate } from "../src/index.js"
import { NOW, readProjectFile, writeProject } from "./projects.js"

const THIRTY_DAYS = "2026-02-14T10:00:00Z"
const COMMENT = "// Added by @portcullis/migrate: browsers holding an Auth.js session cookie stay signed in until then."

describe("legacySessionCookies", () => {
  it("goes last into the literal passed to NextAuth, in its layout, with Auth.js's default 30 days", () => {
    const dir = writeProject({ "auth.ts": `import NextAuth from "next-auth"\n\nexport const { auth } = NextAuth({\n  providers: [],\n  trustHost: true\n})\n` })
    const report = migrate({ dir, now: NOW })
    expect(readProjectFile(dir, "auth.ts")).toBe(`import NextAuth from "@portcullis/nextjs"\n\nexport const { auth } = NextAuth({\n  providers: [],\n  trustHost: true,\n  ${COMMENT}\n  legacySessionCookies: { until: "${THIRTY_DAYS}" }\n})\n`)
    expect(report.legacySessionCookies).toEqual([{ file: "auth.ts", line: 3, until: THIRTY_DAYS, maxAge: 2_592_000, maxAgeFrom: "default" }])
  })

  it("counts from a literal session.maxAge, keeps a trailing comma style and the file's quotes", () => {
    const dir = writeProject({ "auth.ts": `import NextAuth from 'next-auth'\nexport const { auth } = NextAuth({\n    session: { strategy: 'jwt', maxAge: 24 * 60 * 60 },\n})\n` })
    migrate({ dir, now: NOW })
    expect(readProjectFile(dir, "auth.ts")).toBe(`import NextAuth from '@portcullis/nextjs'\nexport const { auth } = NextAuth({\n    session: { strategy: 'jwt', maxAge: 24 * 60 * 60 },\n    ${COMMENT}\n    legacySessionCookies: { until: '2026-01-16T10:00:00Z' },\n})\n`)
  })

  it("follows the argument to a config declared satisfies NextAuthConfig, and a one-line literal stays on one line", () => {
    const dir = writeProject({ "auth.ts": `import NextAuth, { type NextAuthConfig } from "next-auth"\nexport const config = { providers: [] } satisfies NextAuthConfig\nexport const { auth } = NextAuth(config)\n` })
    migrate({ dir, now: NOW })
    expect(readProjectFile(dir, "auth.ts")).toContain(`export const config = { providers: [], legacySessionCookies: { until: "${THIRTY_DAYS}" } } satisfies NextAuthConfig\n`)
  })

  it("follows a config imported from another module, into ExpressAuth and getSession once", () => {
    const dir = writeProject({
      "config.ts": `export const authConfig = {\n  providers: [],\n  session: { maxAge: 3600 },\n}\n`,
      "app.ts": `import { ExpressAuth, getSession } from "@auth/express"\nimport { authConfig } from "./config.js"\nExpressAuth(authConfig)\ngetSession(req, authConfig)\n`,
    })
    const report = migrate({ dir, now: NOW })
    expect(report.legacySessionCookies).toEqual([{ file: "config.ts", line: 1, until: "2026-01-15T11:00:00Z", maxAge: 3600, maxAgeFrom: "config" }])
    expect(readProjectFile(dir, "config.ts")).toContain(`  session: { maxAge: 3600 },\n  ${COMMENT}\n  legacySessionCookies: { until: "2026-01-15T11:00:00Z" },\n}`)
  })

  it("goes into the config passed to SvelteKitAuth", () => {
    const dir = writeProject({ "src/auth.ts": `import { SvelteKitAuth } from "@auth/sveltekit"\nexport const { handle, signIn, signOut } = SvelteKitAuth({ providers: [] })\n` })
    migrate({ dir, now: NOW })
    expect(readProjectFile(dir, "src/auth.ts")).toBe(`import { SvelteKitAuth } from "@portcullis/sveltekit"\nexport const { handle, signIn, signOut } = SvelteKitAuth({ providers: [], legacySessionCookies: { until: "${THIRTY_DAYS}" } })\n`)
  })

  it("goes into a config typed AuthConfig for @auth/core's Auth()", () => {
    const dir = writeProject({ "server.ts": `import { Auth, type AuthConfig } from "@auth/core"\nconst config: AuthConfig = {}\nexport const handle = (request: Request) => Auth(request, config)\n` })
    migrate({ dir, now: NOW })
    expect(readProjectFile(dir, "server.ts")).toContain(`const config: AuthConfig = { legacySessionCookies: { until: "${THIRTY_DAYS}" } }\n`)
  })

  it("goes into the outer config once when a shared config is spread into it (next-auth's edge split)", () => {
    const dir = writeProject({
      "auth.config.ts": `import type { NextAuthConfig } from "next-auth"\nexport default { providers: [], session: { maxAge: 7200 } } satisfies NextAuthConfig\n`,
      "auth.ts": `import NextAuth from "next-auth"\nimport authConfig from "./auth.config"\nexport const { auth } = NextAuth({ ...authConfig, adapter: undefined })\n`,
    })
    const report = migrate({ dir, now: NOW })
    expect(report.legacySessionCookies).toEqual([{ file: "auth.ts", line: 3, until: "2026-01-15T12:00:00Z", maxAge: 7200, maxAgeFrom: "config" }])
    expect(readProjectFile(dir, "auth.config.ts")).not.toContain("legacySessionCookies")
  })

  it("goes into the object a lazy-initialising function returns", () => {
    const dir = writeProject({ "auth.ts": `import NextAuth from "next-auth"\nexport const { auth } = NextAuth((request) => {\n  return { providers: [] }\n})\n` })
    migrate({ dir, now: NOW })
    expect(readProjectFile(dir, "auth.ts")).toContain(`return { providers: [], legacySessionCookies: { until: "${THIRTY_DAYS}" } }`)
  })

  it("is not added twice", () => {
    const text = `import NextAuth from "@portcullis/nextjs"\nimport GitHub from "next-auth/providers/github"\nexport const { auth } = NextAuth({ providers: [GitHub], legacySessionCookies: { until: "2026-03-01T00:00:00Z" } })\n`
    const dir = writeProject({ "auth.ts": text })
    const report = migrate({ dir, now: NOW })
    expect(report.legacySessionCookies).toEqual([])
    expect(readProjectFile(dir, "auth.ts")).toBe(text.replace("next-auth/providers/github", "@portcullis/providers/github"))
  })

  it("is not added to an app that has nothing of Auth.js", () => {
    const text = `import NextAuth from "@portcullis/nextjs"\nexport const { auth } = NextAuth({ providers: [] })\n`
    const dir = writeProject({ "auth.ts": text })
    expect(migrate({ dir, now: NOW }).changed).toEqual([])
    expect(readProjectFile(dir, "auth.ts")).toBe(text)
  })

  it("says when session.maxAge is not a literal, and when the config cannot be followed", () => {
    const dir = writeProject({
      "auth.ts": `import NextAuth from "next-auth"\nexport const { auth } = NextAuth({ session: { maxAge: Number(process.env.MAX_AGE) } })\n`,
      "other.ts": `import NextAuth from "next-auth"\nimport { makeConfig } from "config-package"\nexport const other = NextAuth(makeConfig())\n`,
    })
    const report = migrate({ dir, now: NOW })
    // The clientAddress step is another concern (client-address.test.ts).
    expect(report.manual.filter(({ step }) => !step.includes("clientAddress")).map(({ file, line, step }) => `${file}:${String(line)} ${step}`)).toEqual([
      expect.stringMatching(/^auth\.ts:2 session\.maxAge is not a number literal here, so legacySessionCookies\.until assumes Auth\.js's default of 30 days/),
      expect.stringMatching(/^other\.ts:3 the auth config passed here could not be followed to its object literal: add legacySessionCookies/),
    ])
  })
})
