/** The built bin, as `npx @portcullis/migrate` runs it: output and exit codes. */
import { describe, expect, it } from "vitest"
import { runBin } from "./apps.js"
import { readProjectFile, writeProject } from "./projects.js"

const AUTH = `import NextAuth from "next-auth"\nexport const { auth } = NextAuth({ providers: [] })\n`

describe("portcullis-migrate", () => {
  it("exits 0 and prints the files it changed, the cookie window and the manual steps", async () => {
    const dir = writeProject({ "auth.ts": AUTH, "lib/old.ts": `import { getServerSession } from "next-auth/next"\n` })
    const { code, stdout } = await runBin([dir])
    expect(code).toBe(0)
    expect(stdout).toContain("Changed 1 file(s):\n  auth.ts\n")
    expect(stdout).toMatch(/Auth\.js's session cookies stay accepted until \S+Z \(today \+ Auth\.js's default session maxAge, 30 days\): legacySessionCookies set in auth\.ts:2\./)
    // The config passes no clientAddress (Next.js gives a route no socket address): listed before the v4 import.
    expect(stdout).toMatch(/Manual steps left \(2\):\n {2}auth\.ts:2:\d+: Portcullis limits sign-in attempts per client address.*\n {2}lib\/old\.ts:1:34: "next-auth\/next" is next-auth v4's API/)
    expect(readProjectFile(dir, "auth.ts")).toContain('from "@portcullis/nextjs"')
  })

  it("exits 0 when nothing needs a change", async () => {
    const dir = writeProject({ "index.ts": `export const x = 1\n` })
    const { code, stdout } = await runBin([dir])
    expect(code).toBe(0)
    expect(stdout).toBe("No file needed a change.\nNo manual step left.\n")
  })

  it("prints a unified diff and writes nothing with --dry-run", async () => {
    const dir = writeProject({ "auth.ts": AUTH })
    const { code, stdout } = await runBin(["--dry-run", dir])
    expect(code).toBe(0)
    expect(stdout).toContain(`--- a/auth.ts\n+++ b/auth.ts\n@@ -1,3 +1,3 @@\n-import NextAuth from "next-auth"\n-export const { auth } = NextAuth({ providers: [] })\n+import NextAuth from "@portcullis/nextjs"\n+export const { auth } = NextAuth({ providers: [], legacySessionCookies: { until: "`)
    expect(stdout).toContain("Would change 1 file(s) (dry run: nothing written):\n  auth.ts\n")
    expect(readProjectFile(dir, "auth.ts")).toBe(AUTH)
  })

  it("exits 1 naming a file it cannot parse, and writes nothing", async () => {
    const dir = writeProject({ "auth.ts": AUTH, "app/page.tsx": `export default function Page() { return <main> }\n` })
    const { code, stdout, stderr } = await runBin([dir])
    expect(code).toBe(1)
    expect(stdout).toBe("")
    expect(stderr).toMatch(/^Could not parse 1 file\(s\); nothing was changed:\n {2}app\/page\.tsx:1:\d+: /)
    expect(readProjectFile(dir, "auth.ts")).toBe(AUTH)
  })

  it("exits 2 on an unknown option or a missing directory", async () => {
    expect((await runBin(["--force"])).code).toBe(2)
    const missing = await runBin(["/nonexistent/app"])
    expect(missing.code).toBe(2)
    expect(missing.stderr).toContain("/nonexistent/app is not a directory.")
  })
})
