import { describe, expect, it } from "vitest"
import { applyEdits } from "../src/edits.js"
import { migratePackageJson } from "../src/package-json.js"
import { workspace } from "../src/workspace.js"

const core = `^${workspace.versions["@portcullis/core"] ?? ""}`
const nextjs = `^${workspace.versions["@portcullis/nextjs"] ?? ""}`
const express = `^${workspace.versions["@portcullis/express"] ?? ""}`
const providers = `^${workspace.versions["@portcullis/providers"] ?? ""}`

function migrated(text: string, used: string[] = []): { text: string; steps: string[] } {
  const result = migratePackageJson("package.json", text, new Set(used))
  return { text: applyEdits(text, result.edits), steps: result.manual.map(({ line, step }) => `${String(line)} ${step}`) }
}

describe("migratePackageJson", () => {
  it("writes the range of the release the codemod was built with", () => {
    expect(core).toMatch(/^\^\d+\.\d+\.\d+/)
  })

  it("replaces next-auth where it is, and adds core (its peer) and the providers the code imports, sorted in", () => {
    const text = `{\n  "name": "app",\n  "dependencies": {\n    "next": "^16.0.0",\n    "next-auth": "5.0.0-beta.25",\n    "react": "^19.0.0"\n  }\n}\n`
    expect(migrated(text, ["@portcullis/nextjs", "@portcullis/providers"]).text).toBe(
      `{\n  "name": "app",\n  "dependencies": {\n    "@portcullis/core": "${core}",\n    "@portcullis/providers": "${providers}",\n    "next": "^16.0.0",\n    "@portcullis/nextjs": "${nextjs}",\n    "react": "^19.0.0"\n  }\n}\n`,
    )
  })

  it("replaces @auth/core and @auth/express in every dependency section, keeping the file's indentation", () => {
    const text = `{\n\t"dependencies": {\n\t\t"@auth/express": "^0.12.3"\n\t},\n\t"devDependencies": {\n\t\t"@auth/core": "^0.41.0"\n\t}\n}`
    expect(migrated(text).text).toBe(`{\n\t"dependencies": {\n\t\t"@portcullis/express": "${express}"\n\t},\n\t"devDependencies": {\n\t\t"@portcullis/core": "${core}"\n\t}\n}`)
  })

  it("removes an Auth.js package whose replacement is already there", () => {
    const text = `{ "dependencies": { "@auth/core": "^0.41.0", "@portcullis/core": "^0.1.0", "next": "16" } }`
    expect(migrated(text).text).toBe(`{ "dependencies": { "@portcullis/core": "^0.1.0", "next": "16" } }`)
    const last = `{ "dependencies": { "@portcullis/core": "^0.1.0", "@auth/core": "^0.41.0" } }`
    expect(migrated(last).text).toBe(`{ "dependencies": { "@portcullis/core": "^0.1.0" } }`)
  })

  it("leaves Auth.js's adapters, and a package.json without Auth.js, as they are", () => {
    const text = `{ "dependencies": { "@auth/core": "^0.41.0", "@auth/pg-adapter": "^1.11.0" } }`
    expect(migrated(text).text).toBe(`{ "dependencies": { "@portcullis/core": "${core}", "@auth/pg-adapter": "^1.11.0" } }`)
    const other = `{ "dependencies": { "express": "^5.0.0" } }`
    expect(migrated(other, ["@portcullis/core"]).text).toBe(other)
  })

  it("stops at a Next.js older than 16, which @portcullis/nextjs needs, with the upgrade to run first", () => {
    const result = migratePackageJson("package.json", `{\n  "dependencies": {\n    "next": "^15.1.0",\n    "next-auth": "5.0.0-beta.25"\n  }\n}`, new Set())
    expect(result.blockers.map(({ line, step }) => `${String(line)} ${step}`)).toEqual([expect.stringMatching(/^3 upgrade Next\.js to 16 first: `npx @next\/codemod@canary upgrade latest`/)])
    expect(migratePackageJson("package.json", `{ "dependencies": { "next": "^16.0.0", "next-auth": "5.0.0-beta.25" } }`, new Set()).blockers).toEqual([])
  })

  it("replaces @auth/sveltekit, adding the core and providers it needs beside it", () => {
    const { text, steps } = migrated(`{\n  "dependencies": {\n    "@auth/sveltekit": "^1.11.0"\n  }\n}`)
    expect(steps).toEqual([])
    const dependencies = (JSON.parse(text) as { dependencies: Record<string, string> }).dependencies
    expect(Object.keys(dependencies).sort()).toEqual(["@portcullis/core", "@portcullis/providers", "@portcullis/sveltekit"])
    expect(dependencies["@portcullis/sveltekit"]).toBe(`^${workspace.versions["@portcullis/sveltekit"] ?? ""}`)
  })

  it("lists next-auth v4, v4's adapter packages and Auth.js integrations we lack", () => {
    const text = `{\n  "dependencies": {\n    "next-auth": "^4.24.5",\n    "@next-auth/prisma-adapter": "^1.0.7",\n    "@auth/solid-start": "^0.19.0"\n  }\n}`
    const { steps } = migrated(text)
    expect(steps).toEqual([
      expect.stringMatching(/^3 next-auth \^4\.24\.5 is next-auth v4: Portcullis follows next-auth v5's API/),
      expect.stringMatching(/^4 @next-auth\/prisma-adapter is next-auth v4's adapter package: replace it with Auth\.js's @auth\/prisma-adapter/),
      expect.stringMatching(/^5 @auth\/solid-start: Portcullis has no counterpart/),
    ])
  })
})
