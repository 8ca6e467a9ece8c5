import { describe, expect, it } from "vitest"
import { migrateSpecifier } from "../src/modules.js"

const rewrites: [string, string][] = [
  ["next-auth", "@portcullis/nextjs"],
  ["next-auth/react", "@portcullis/nextjs/react"],
  ["next-auth/jwt", "@portcullis/core/jwt"],
  ["next-auth/adapters", "@portcullis/core/adapters"],
  ["next-auth/providers", "@portcullis/core/providers"],
  ["next-auth/providers/github", "@portcullis/providers/github"],
  ["next-auth/providers/credentials", "@portcullis/providers/credentials"],
  ["next-auth/providers/passkey", "@portcullis/providers/passkey"],
  ["next-auth/providers/nodemailer", "@portcullis/providers/nodemailer"],
  ["@auth/core", "@portcullis/core"],
  ["@auth/core/providers/google", "@portcullis/providers/google"],
  ["@auth/core/providers/microsoft-entra-id", "@portcullis/providers/microsoft-entra-id"],
  ["@auth/core/providers", "@portcullis/core/providers"],
  ["@auth/core/jwt", "@portcullis/core/jwt"],
  ["@auth/core/adapters", "@portcullis/core/adapters"],
  ["@auth/core/types", "@portcullis/core/types"],
  ["@auth/core/errors", "@portcullis/core/errors"],
  ["@auth/express", "@portcullis/express"],
  ["@auth/express/providers/github", "@portcullis/express/providers/github"],
  ["@auth/sveltekit", "@portcullis/sveltekit"],
  ["@auth/sveltekit/client", "@portcullis/sveltekit/client"],
  ["@auth/sveltekit/components", "@portcullis/sveltekit/components"],
  ["@auth/sveltekit/providers/github", "@portcullis/sveltekit/providers/github"],
  ["@auth/sveltekit/adapters", "@portcullis/core/adapters"],
  ["@auth/sveltekit/providers", "@portcullis/core/providers"],
  ["@auth/express/adapters", "@portcullis/core/adapters"],
  ["@auth/express/providers", "@portcullis/core/providers"],
]

describe("migrateSpecifier", () => {
  it.each(rewrites)("rewrites %s to %s", (from, to) => {
    expect(migrateSpecifier(from)).toEqual({ kind: "rewrite", to })
  })

  it.each([
    ["next-auth/package.json", "@portcullis/nextjs/package.json"],
    ["@auth/core/package.json", "@portcullis/core/package.json"],
    ["@auth/express/package.json", "@portcullis/express/package.json"],
    ["@auth/sveltekit/package.json", "@portcullis/sveltekit/package.json"],
  ])("rewrites %s to %s, with a note that its version is now ours", (from, to) => {
    const migration = migrateSpecifier(from)
    expect(migration).toMatchObject({ kind: "rewrite", to })
    expect(migration?.kind === "rewrite" ? migration.note : "").toContain("is Portcullis's, no longer Auth.js's")
  })

  it.each(["@auth/pg-adapter", "@auth/prisma-adapter", "@auth/unstorage-adapter", "@portcullis/core", "next", "react", "./auth"])("leaves %s as it is", (specifier) => {
    expect(migrateSpecifier(specifier)).toBeUndefined()
  })

  it.each([
    ["next-auth/next", "getServerSession"],
    ["next-auth/middleware", "withAuth"],
    ["next-auth/client", "next-auth v3"],
    ["next-auth/webauthn", "@portcullis/core/webauthn/client"],
    ["next-auth/lib/env", "not part of next-auth v5's public API"],
    ["next-auth/providers/acme-unknown", 'no "acme-unknown" provider'],
    ["@auth/core/providers/acme-unknown", 'no "acme-unknown" provider'],
    ["@auth/express/providers/acme-unknown", 'no "acme-unknown" provider'],
    ["@auth/core/lib/utils/env", '"@portcullis/core/jwt"'],
    ["@auth/sveltekit/webauthn", "@portcullis/core/webauthn/client"],
    ["@auth/sveltekit/dist/lib/env", "no counterpart in @portcullis/sveltekit"],
    ["@auth/express/lib/utils", "no counterpart in @portcullis/express"],
    ["@auth/sveltekit/providers/acme-unknown", 'no "acme-unknown" provider'],
    ["@auth/solid-start", "no integration for @auth/solid-start"],
    ["@next-auth/prisma-adapter", "install Auth.js's @auth/prisma-adapter"],
  ])("lists %s as a manual step saying what to do", (specifier, says) => {
    const migration = migrateSpecifier(specifier)
    expect(migration?.kind).toBe("manual")
    expect(migration?.kind === "manual" ? migration.step : "").toContain(says)
  })
})
