/**
 * The release rehearsal: what "pin core and providers separately" means, proved on every run.
 *
 * A scratch copy of the workspace is published to a real npm registry on loopback (Verdaccio);
 * then a core minor and a providers minor are versioned with changesets one after the other,
 * each checked to bump only its own package, and published. Fresh npm projects (npm's default peer
 * resolution) install every mix of previous and current core and providers, and each signs in
 * through a real OpenID Provider.
 */
import { existsSync, mkdtempSync, readFileSync } from "node:fs"
import { rm, writeFile } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { startDevIdp, type DevIdp } from "@portcullis/dev-idp"
import { TestBrowser } from "@portcullis/test-kit/browser"
import semver from "semver"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { createProject, freePort, startApp, startDevIdpBin, type Project } from "./project.js"
import { startRegistry, type Registry } from "./registry.js"
import { npmEnv, run } from "./run.js"
import { ROOT, addChangeset, copyWorkspace, publishedPackages, versions } from "./workspace.js"

const CLIENT = { id: "rehearsal", secret: "rehearsal-client-secret" }
const SECRET = "a-rehearsal-secret-of-at-least-32-characters"
const CHANGESET = join(import.meta.dirname, "..", "node_modules", ".bin", "changeset")
const NPM_CACHE = join(import.meta.dirname, "..", "node_modules", ".cache", "rehearsal-npm")
/** Who signs in with which provider: one user each, since the linking rules keep an email to the provider that first signed it in. */
const SIGN_INS = [
  { providerId: "keycloak", login: "alice@example.com", password: "alice-password" },
  { providerId: "idp", login: "bob@example.net", password: "bob-password" },
]

/**
 * The arguments of the README's install line (the first `npm install` under "Use it in your
 * app"), so the rehearsal installs exactly what a new user types.
 */
function readmeInstallLine(): string[] {
  const readme = readFileSync(join(ROOT, "README.md"), "utf8")
  const section = readme.slice(readme.indexOf("## Use it in your app"))
  const line = /^npm install (.+)$/m.exec(section)?.[1]
  if (line === undefined) throw new Error("README.md: no `npm install` line under \"Use it in your app\"")
  return ["install", ...line.trim().split(/\s+/)]
}

const dir = mkdtempSync(join(tmpdir(), "auth-release-"))
const scratch = join(dir, "workspace")
/** What afterAll stops, last started first. */
const running: { close(): Promise<void> }[] = []
let registry: Registry
/** For changesets and pnpm publish: the rehearsal registry. */
let publishEnv: NodeJS.ProcessEnv
/** For the apps' npm: npm's configured registry, the `@portcullis` scope from the rehearsal's. */
let installEnv: NodeJS.ProcessEnv
let idp: DevIdp
const ports: number[] = []
/** Versions published by each release, oldest first. */
const releases: Record<string, string>[] = []

beforeAll(async () => {
  const upstream = (await run("npm", ["config", "get", "registry"], { cwd: ROOT, env: process.env })).stdout.trim()
  const [, started] = await Promise.all([copyWorkspace(scratch), startRegistry(join(dir, "registry"))])
  registry = started
  running.push(registry)
  // pnpm publish reads the workspace's .npmrc; npm and changesets the userconfig in `publishEnv`.
  await run("sh", ["-c", `cat "${registry.npmrc}" >> .npmrc`], { cwd: scratch, env: process.env })
  publishEnv = npmEnv(registry.url, registry.npmrc, join(dir, "npm-cache"))
  const noUserConfig = join(dir, "empty-npmrc")
  await writeFile(noUserConfig, "")
  // Kept between runs: third-party packages come from there with --prefer-offline; the
  // rehearsal's own @portcullis/* tarballs are new every run.
  installEnv = npmEnv(upstream, noUserConfig, NPM_CACHE)
  for (let i = 0; i < 5; i++) ports.push(await freePort())
  idp = await startDevIdp({
    clients: [
      {
        client_id: CLIENT.id,
        client_secret: CLIENT.secret,
        redirect_uris: ports.flatMap((port) => ["idp", "keycloak"].map((id) => `http://127.0.0.1:${port}/api/auth/callback/${id}`)),
      },
    ],
    consent: "auto",
  })
  running.push(idp)
})

afterAll(async () => {
  for (const started of running.reverse()) await started.close()
  await rm(dir, { recursive: true, force: true })
})

const changeset = (...args: string[]) => run(CHANGESET, args, { cwd: scratch, env: publishEnv })

/** Publishes what the scratch workspace holds that the registry lacks, and records the versions. */
async function publish(): Promise<void> {
  await changeset("publish", "--no-git-tag")
  releases.push(await versions(scratch))
}

/** The versions the registry holds of `name`. */
async function published(name: string): Promise<string[]> {
  const response = await fetch(new URL(name.replace("/", "%2f"), registry.url))
  if (response.status === 404) return []
  return Object.keys(((await response.json()) as { versions: Record<string, unknown> }).versions)
}

/** Every peer range on a workspace package must accept that package's version in the workspace. */
async function expectSatisfiablePeers(root: string): Promise<void> {
  const current = await versions(root)
  for (const { manifest } of await publishedPackages(root)) {
    for (const [name, range] of Object.entries(manifest.peerDependencies ?? {})) {
      const version = current[name]
      if (version === undefined) continue
      const plain = range.replace(/^workspace:/, "")
      expect(semver.satisfies(version, plain), `${manifest.name} peer ${name}@"${range}" must accept ${version}`).toBe(true)
    }
  }
}

/** Signs in with `providerId` through the app's sign-in form and the login page of the IdP at `issuer`. */
async function signIn(app: string, { providerId, login: email, password }: (typeof SIGN_INS)[number], issuer = idp.issuer): Promise<{ url: string; session: unknown }> {
  const browser = new TestBrowser()
  const csrf = (await (await browser.request(`${app}/api/auth/csrf`)).json()) as { csrfToken: string }
  const login = await browser.navigate(`${app}/api/auth/signin/${providerId}`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ csrfToken: csrf.csrfToken, callbackUrl: `${app}/me` }),
    initiator: `${app}/api/auth/signin`,
  })
  expect(new URL(login.url).origin, login.body.slice(0, 500)).toBe(issuer)
  const landed = await browser.submitForm(login, { values: { login: email, password } })
  if (new URL(landed.url).pathname !== "/me") throw new Error(`${providerId}: the sign-in ended on ${landed.url}:\n${landed.body.slice(0, 2000)}`)
  return { url: landed.url, session: (JSON.parse(landed.body) as { session: unknown }).session }
}

/** Runs the project's app and signs in with a generic OIDC provider and a packaged one. */
async function expectSignIns(project: Project, port: number): Promise<void> {
  const app = await startApp(project, port, { ISSUER: idp.issuer, CLIENT_ID: CLIENT.id, CLIENT_SECRET: CLIENT.secret, AUTH_SECRET: SECRET })
  try {
    for (const account of SIGN_INS) {
      const { url, session } = await signIn(app.url, account)
      expect(url, account.providerId).toBe(`${app.url}/me`)
      expect(session, account.providerId).toMatchObject({ user: { email: account.login } })
    }
  } finally {
    await app.close()
  }
}

/** What npm installed in the project, by package name. */
async function installed(project: Project): Promise<Record<string, string>> {
  const tree = JSON.parse((await project.npm("ls", "--json")).stdout) as { dependencies: Record<string, { version: string }> }
  return Object.fromEntries(Object.entries(tree.dependencies).map(([name, { version }]) => [name, version]))
}

describe("release rehearsal", () => {
  it("publishes every published package at its version", async () => {
    await publish()
    const [first] = releases
    for (const [name, version] of Object.entries(first ?? {})) expect(await published(name), name).toEqual([version])
  })

  it("versions a core minor alone: providers and adapters keep their version and their peer range accepts it; core's changelog gains the entry above the previous release", async () => {
    const before = await versions(scratch)
    await addChangeset(scratch, "core-minor", { "@portcullis/core": "minor" }, "A new core option.")
    await changeset("version")
    const after = await versions(scratch)
    expect(after["@portcullis/core"]).toBe(semver.inc(before["@portcullis/core"] ?? "", "minor"))
    const changelog = readFileSync(join(scratch, "packages", "core", "CHANGELOG.md"), "utf8")
    const [added, previous] = [`## ${after["@portcullis/core"] ?? ""}\n`, `## ${before["@portcullis/core"] ?? ""}\n`].map((heading) => changelog.indexOf(heading))
    expect(added, changelog.slice(0, 400)).toBeGreaterThanOrEqual(0)
    expect(changelog.indexOf("A new core option."), changelog.slice(0, 400)).toBeGreaterThan(added ?? 0)
    expect(previous, "the previous release's entries stay, below the new one").toBeGreaterThan(changelog.indexOf("A new core option."))
    expect({ ...after, "@portcullis/core": undefined }).toEqual({ ...before, "@portcullis/core": undefined })
    await expectSatisfiablePeers(scratch)
  })

  it("versions a providers minor alone, leaving core where it is", async () => {
    const before = await versions(scratch)
    await addChangeset(scratch, "providers-minor", { "@portcullis/providers": "minor" }, "A new provider.")
    await changeset("version")
    const after = await versions(scratch)
    expect(after["@portcullis/providers"]).toBe(semver.inc(before["@portcullis/providers"] ?? "", "minor"))
    expect({ ...after, "@portcullis/providers": undefined }).toEqual({ ...before, "@portcullis/providers": undefined })
    await expectSatisfiablePeers(scratch)
  })

  it("publishes only what was versioned", async () => {
    await publish()
    const [previous, current] = releases
    for (const [name, version] of Object.entries(current ?? {})) {
      const expected = version === previous?.[name] ? [version] : [previous?.[name], version]
      expect(await published(name), name).toEqual(expected)
    }
  })

  describe("installed with npm's default peer resolution", () => {
    /** The version `name` had in release `index` (0: previous, 1: current). */
    const at = (index: number, name: string): string => releases[index]?.[name] ?? "missing"
    const projects = new Map<string, Promise<Project>>()

    /** A fresh project with `specs` installed; the installs of all projects run at once. */
    async function install(name: string, ...steps: string[][]): Promise<Project> {
      const project = await createProject(join(dir, name), installEnv, registry.url)
      for (const step of steps) await project.npm(...step, "--prefer-offline")
      return project
    }

    beforeAll(() => {
      const core = { previous: `@portcullis/core@${at(0, "@portcullis/core")}`, current: `@portcullis/core@${at(1, "@portcullis/core")}` }
      const providers = { previous: `@portcullis/providers@${at(0, "@portcullis/providers")}`, current: `@portcullis/providers@${at(1, "@portcullis/providers")}` }
      const installs: Record<string, string[][]> = {
        "providers-current-core-previous": [["install", providers.current, core.previous, "@portcullis/adapter-memory"]],
        // Exactly the README's line (the registry's latest is the current release), then the
        // adapter its app uses, as the README says to add it, and the dev IdP it signs in with first.
        "providers-current-core-current": [readmeInstallLine(), ["install", "@portcullis/adapter-memory"], ["install", "--save-dev", "@portcullis/dev-idp"]],
        // The in-place upgrade: the lockfile npm writes must satisfy the next `npm ci`.
        "providers-previous-core-current": [["install", providers.previous, core.previous, "@portcullis/adapter-memory"], ["install", core.current], ["ci"]],
      }
      for (const [name, steps] of Object.entries(installs)) {
        const project = install(name, ...steps)
        // Awaited by each test; a failure here must not also surface as an unhandled rejection.
        project.catch(() => undefined)
        projects.set(name, project)
      }
    })

    async function project(name: string): Promise<Project> {
      const found = projects.get(name)
      if (found === undefined) throw new Error(`no project ${name}`)
      return found
    }

    it("installs the current providers with the previous core, and signs in", async () => {
      const installedProject = await project("providers-current-core-previous")
      expect(await installed(installedProject)).toMatchObject({ "@portcullis/providers": at(1, "@portcullis/providers"), "@portcullis/core": at(0, "@portcullis/core") })
      await expectSignIns(installedProject, ports[0] ?? 0)
    })

    it("installs the README's install line, which names only @portcullis packages", () => {
      const names = readmeInstallLine().slice(1)
      expect(names).toEqual(expect.arrayContaining(["@portcullis/core", "@portcullis/providers"]))
      for (const name of names) expect(name).toMatch(/^@portcullis\//)
    })

    it("installs the current providers with the current core from the README's line, and signs in", async () => {
      const installedProject = await project("providers-current-core-current")
      expect(await installed(installedProject)).toMatchObject({ "@portcullis/providers": at(1, "@portcullis/providers"), "@portcullis/core": at(1, "@portcullis/core") })
      await expectSignIns(installedProject, ports[1] ?? 0)
    })

    it("upgrades core in place under the previous providers, passes npm ci, and signs in", async () => {
      const installedProject = await project("providers-previous-core-current")
      expect(await installed(installedProject)).toMatchObject({ "@portcullis/providers": at(0, "@portcullis/providers"), "@portcullis/core": at(1, "@portcullis/core") })
      await expectSignIns(installedProject, ports[2] ?? 0)
    })

    it("runs npx @portcullis/dev-idp from the installed package, and the app signs in with the provider it printed", async () => {
      const installedProject = await project("providers-current-core-current")
      const [appPort = 0, idpPort = 0] = ports.slice(3)
      const devIdp = await startDevIdpBin(installedProject, ["--port", String(idpPort), "--redirect-uri", `http://127.0.0.1:${appPort}/api/auth/callback/idp`, "--consent", "auto"])
      try {
        expect(devIdp.issuer).toBe(`http://127.0.0.1:${idpPort}`)
        const app = await startApp(installedProject, appPort, { ISSUER: devIdp.issuer, CLIENT_ID: devIdp.clientId, CLIENT_SECRET: devIdp.clientSecret, AUTH_SECRET: SECRET })
        try {
          const account = SIGN_INS.find(({ providerId }) => providerId === "idp") ?? expect.unreachable("no idp sign-in")
          const { url, session } = await signIn(app.url, account, devIdp.issuer)
          expect(url).toBe(`${app.url}/me`)
          expect(session).toMatchObject({ user: { email: account.login } })
        } finally {
          await app.close()
        }
        // Nothing on stderr: oidc-provider's "Unsupported runtime" line on Node.js 20 is dropped.
        expect(devIdp.stderr()).toBe("")
      } finally {
        await devIdp.close()
      }
    })

    it("installs no nodemailer, and the nodemailer provider names it only when it sends", async () => {
      const installedProject = await project("providers-current-core-current")
      expect(existsSync(join(installedProject.dir, "node_modules", "nodemailer"))).toBe(false)
      const { stdout } = await run(process.execPath, ["--input-type=module", "-e", NODEMAILER_MISSING], { cwd: installedProject.dir, env: process.env })
      expect(stdout.trim()).toMatch(/^Configuration: .*run `npm install nodemailer`/)
    })

    it("loads with require() from CommonJS, as the README says", async () => {
      const installedProject = await project("providers-current-core-current")
      const { stdout } = await run(process.execPath, ["--input-type=commonjs", "-e", REQUIRE_FROM_COMMONJS], { cwd: installedProject.dir, env: process.env })
      expect(stdout.trim()).toBe("function function function")
    })
  })
})

/** Imports the nodemailer provider without nodemailer installed, then tries to send. */
const NODEMAILER_MISSING = `
import Nodemailer from "@portcullis/providers/nodemailer"
const provider = Nodemailer({ server: "smtp://127.0.0.1:1", from: "app@example.com" })
try {
  await provider.sendVerificationRequest({ identifier: "a@example.com", url: "http://127.0.0.1/x", expires: new Date(), provider, token: "t", theme: {}, request: new Request("http://127.0.0.1/") })
  console.log("sent")
} catch (error) {
  console.log(error.name + ": " + error.message)
}
`

/** What the README promises a CommonJS app on Node.js 20.19 or later. */
const REQUIRE_FROM_COMMONJS = `
const { Auth } = require("@portcullis/core")
const GitHub = require("@portcullis/providers/github").default
const { MemoryAdapter } = require("@portcullis/adapter-memory")
console.log(typeof Auth, typeof GitHub, typeof MemoryAdapter)
`
