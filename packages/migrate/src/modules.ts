/**
 * Where each Auth.js module specifier goes: one of ours, nowhere (a manual step), or left as it is.
 */
import { honoAuthJs } from "./hono-auth-js.js"
import { migrateAstroSpecifier } from "./astro.js"
import { hasEntry, workspace } from "./workspace.js"

/**
 * The outcome for one module specifier; a rewrite's `note` says what the new module means
 * differently, its `names` what becomes of a name imported from it that does not carry over as it was.
 */
export type SpecifierMigration = { kind: "rewrite"; to: string; note?: string; names?: Readonly<Record<string, string>> } | { kind: "manual"; step: string }

/** Auth.js's packages and ours that replace them. */
export const RENAMED_PACKAGES: Readonly<Record<string, string>> = {
  "next-auth": "@portcullis/nextjs",
  "@auth/core": "@portcullis/core",
  "@auth/express": "@portcullis/express",
  "@auth/sveltekit": "@portcullis/sveltekit",
  "@hono/auth-js": "@portcullis/hono",
  "auth-astro": "@portcullis/astro",
}

/** Auth.js's guide from next-auth v4 to v5, which the manual steps for v4's API point to. */
export const V5_GUIDE = "https://authjs.dev/getting-started/migrating-to-v5"

/** What replaces Auth.js's passkey entries (next-auth's and @auth/sveltekit's `webauthn`). */
function webauthnStep(from: string): string {
  return `"${from}": sign in with signIn("passkey") from "@portcullis/core/client" and register passkeys with registerPasskey from "@portcullis/core/webauthn/client"`
}

/** next-auth subpaths that belong to next-auth v4 (or older), with what to do instead. */
const NEXT_AUTH_LEGACY: Record<string, string> = {
  next: `"next-auth/next" is next-auth v4's API (getServerSession, the pages-router handler): call auth() from the NextAuth(...) result of your auth.ts instead (${V5_GUIDE})`,
  middleware: `"next-auth/middleware" (withAuth) is next-auth v4's API: export auth from your auth.ts as the middleware and decide access in the authorized callback (${V5_GUIDE})`,
  client: `"next-auth/client" is next-auth v3's API: use SessionProvider, useSession, signIn and signOut from "@portcullis/nextjs/react"`,
  webauthn: webauthnStep("next-auth/webauthn"),
}

/** next-auth's own subpaths and the module of ours that holds the same thing. */
const NEXT_AUTH_SUBPATHS: Record<string, string> = {
  "": "@portcullis/nextjs",
  react: "@portcullis/nextjs/react",
  jwt: "@portcullis/core/jwt",
  adapters: "@portcullis/core/adapters",
  providers: "@portcullis/core/providers",
}

function provider(id: string, from: string, into = "@portcullis/providers"): SpecifierMigration {
  if (hasEntry("@portcullis/providers", id)) return { kind: "rewrite", to: `${into}/${id}` }
  return { kind: "manual", step: `"${from}": Portcullis has no "${id}" provider; configure it as a generic OAuth 2.0 or OpenID Connect provider ({ id: "${id}", type: "oidc", issuer, ... }) or as a custom provider object` }
}

function nextAuth(subpath: string, from: string): SpecifierMigration {
  const ours = NEXT_AUTH_SUBPATHS[subpath]
  if (ours !== undefined) return { kind: "rewrite", to: ours }
  if (subpath.startsWith("providers/")) return provider(subpath.slice("providers/".length), from)
  const legacy = NEXT_AUTH_LEGACY[subpath.split("/")[0] ?? ""]
  if (legacy !== undefined) return { kind: "manual", step: legacy }
  return { kind: "manual", step: `"${from}" is not part of next-auth v5's public API and has no Portcullis counterpart: replace what it provides by hand` }
}

function authCore(subpath: string, from: string): SpecifierMigration {
  if (subpath.startsWith("providers/")) return provider(subpath.slice("providers/".length), from)
  if (hasEntry("@portcullis/core", subpath)) return { kind: "rewrite", to: subpath === "" ? "@portcullis/core" : `@portcullis/core/${subpath}` }
  return { kind: "manual", step: `"${from}" has no counterpart in @portcullis/core (its entries: ${(workspace.entries["@portcullis/core"] ?? []).map((entry) => `"@portcullis/core${entry === "" ? "" : `/${entry}`}"`).join(", ")}): replace what it provides by hand` }
}

/** The types-only entries the integrations (`@auth/express`, `@auth/sveltekit`) re-export from @auth/core, and core's entry holding them. */
const INTEGRATION_TYPE_ENTRIES: Record<string, string> = {
  adapters: "@portcullis/core/adapters",
  providers: "@portcullis/core/providers",
}

function authExpress(subpath: string, from: string): SpecifierMigration {
  if (subpath === "") return { kind: "rewrite", to: "@portcullis/express" }
  if (subpath.startsWith("providers/")) return provider(subpath.slice("providers/".length), from, "@portcullis/express/providers")
  const types = INTEGRATION_TYPE_ENTRIES[subpath]
  if (types !== undefined) return { kind: "rewrite", to: types }
  return { kind: "manual", step: `"${from}" has no counterpart in @portcullis/express: replace what it provides by hand` }
}

/** `@auth/sveltekit`'s entries: the same subpaths in @portcullis/sveltekit (its `providers/<id>` re-export ours). */
function authSvelteKit(subpath: string, from: string): SpecifierMigration {
  if (subpath.startsWith("providers/")) return provider(subpath.slice("providers/".length), from, "@portcullis/sveltekit/providers")
  if (hasEntry("@portcullis/sveltekit", subpath)) return { kind: "rewrite", to: subpath === "" ? "@portcullis/sveltekit" : `@portcullis/sveltekit/${subpath}` }
  const types = INTEGRATION_TYPE_ENTRIES[subpath]
  if (types !== undefined) return { kind: "rewrite", to: types }
  if (subpath === "webauthn") return { kind: "manual", step: webauthnStep(from) }
  return { kind: "manual", step: `"${from}" has no counterpart in @portcullis/sveltekit (its entries: "@portcullis/sveltekit", "/client", "/components", "/providers/<id>"): replace what it provides by hand` }
}

/**
 * `<package>/package.json` of an Auth.js package: our package's manifest, with a note, since what
 * an app reads from it (its `version`, shown in a footer) is now Portcullis's release.
 */
function manifest(pkg: string, from: string): SpecifierMigration | undefined {
  const ours = RENAMED_PACKAGES[pkg]
  if (ours === undefined || !hasEntry(ours, "package.json")) return undefined
  const version = workspace.versions[ours] ?? ""
  return { kind: "rewrite", to: `${ours}/package.json`, note: `"${from}" now reads ${ours}'s package.json: its version (${version} in this release) is Portcullis's, no longer Auth.js's; reword any text that presents it as ${pkg}'s version` }
}

/** Splits `@scope/name/sub/path` or `name/sub/path` into the package name and the subpath. */
export function splitSpecifier(specifier: string): { pkg: string; subpath: string } {
  const parts = specifier.split("/")
  const length = specifier.startsWith("@") ? 2 : 1
  return { pkg: parts.slice(0, length).join("/"), subpath: parts.slice(length).join("/") }
}

/** Whether a package is one of Auth.js's adapters (`@auth/pg-adapter`...), which work with Portcullis as they are. */
export function isAuthJsAdapter(pkg: string): boolean {
  return pkg.startsWith("@auth/") && pkg.endsWith("-adapter")
}

/**
 * What becomes of `specifier`, or `undefined` when it is not an Auth.js module the codemod
 * handles (ours, Auth.js's adapters, anything else).
 *
 * @example
 * ```ts
 * migrateSpecifier("next-auth/providers/github") // { kind: "rewrite", to: "@portcullis/providers/github" }
 * ```
 */
export function migrateSpecifier(specifier: string): SpecifierMigration | undefined {
  const { pkg, subpath } = splitSpecifier(specifier)
  if (subpath === "package.json") {
    const migration = manifest(pkg, specifier)
    if (migration !== undefined) return migration
  }
  if (pkg === "next-auth") return nextAuth(subpath, specifier)
  if (pkg === "@auth/core") return authCore(subpath, specifier)
  if (pkg === "@auth/express") return authExpress(subpath, specifier)
  if (pkg === "@auth/sveltekit") return authSvelteKit(subpath, specifier)
  if (pkg === "@hono/auth-js") return honoAuthJs(subpath, specifier)
  const astro = migrateAstroSpecifier(specifier, subpath)
  if (astro !== undefined) return astro
  if (isAuthJsAdapter(pkg)) return undefined
  if (pkg.startsWith("@auth/")) {
    return { kind: "manual", step: `"${specifier}": Portcullis has no integration for ${pkg}; it offers @portcullis/core (any framework with Request/Response), @portcullis/express, @portcullis/nextjs and @portcullis/sveltekit` }
  }
  if (pkg.startsWith("@next-auth/") && pkg.endsWith("-adapter")) {
    return { kind: "manual", step: `"${specifier}" is next-auth v4's adapter package: install Auth.js's ${pkg.replace("@next-auth/", "@auth/")} instead (Auth.js's adapters work with Portcullis unchanged)` }
  }
  return undefined
}

/** The Portcullis package a migrated specifier belongs to (`@portcullis/providers/github` → `@portcullis/providers`). */
export function portcullisPackageOf(specifier: string): string | undefined {
  const { pkg, subpath } = splitSpecifier(specifier)
  if (!pkg.startsWith("@portcullis/")) return undefined
  // @portcullis/express/providers/<id> (and sveltekit's) re-export @portcullis/providers/<id>, their peer.
  if ((pkg === "@portcullis/express" || pkg === "@portcullis/sveltekit") && subpath.startsWith("providers/")) return "@portcullis/providers"
  return pkg
}
