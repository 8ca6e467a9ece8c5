/**
 * The README's apps (and the documentation site's getting-started pages, which show the same), run exactly as written: each framework's marked blocks (`<!-- snippet: ... -->`)
 * become a project in a temporary folder, with this package's node_modules linked in: it holds
 * what the install lines name, the workspace's packages built as they are published. Each is type-checked with the
 * `tsconfig.json` shown, built and started with the `package.json` scripts shown (`.env` loaded by
 * Node's `--env-file`), and a cookie-jar browser signs in through `npx @portcullis/dev-idp`'s bin
 * with its default consent page, visits the protected route and signs out.
 *
 * The Next.js blocks go into an app as `npx create-next-app@16` writes it (test/fixtures/create-next-app),
 * with what the README's install line names added to its package.json and linked in from the
 * workspace, are built with `next build` (Next's type check included) and served by `next start`.
 * The Next.js, SvelteKit, React Router, TanStack Start, Astro and Nuxt apps, built the same way over
 * their generators' files, follow the sign-in up to GitHub's authorize URL (GitHub is never
 * reached), and get the dev IdP beside GitHub in their auth configuration to sign in through it.
 */
import { execFile } from "node:child_process"
import { readFileSync } from "node:fs"
import { cp, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from "node:fs/promises"
import { createRequire } from "node:module"
import { tmpdir } from "node:os"
import { dirname, join } from "node:path"
import { promisify } from "node:util"
import { DEFAULT_ACCOUNTS } from "@portcullis/dev-idp"
import { TestBrowser, type Page } from "@portcullis/test-kit/browser"
import { freePort, spawnServer, type SpawnedServer } from "@portcullis/test-kit/system"
import { linkWorkspacePackages } from "@portcullis/test-kit/workspace"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { asFilledIn, importedPackages, installedPackages, mergeSnippets, projectFiles, readSnippets, type Snippet } from "./snippets.js"
import { README_FILES, SITE_PAGES } from "./sources.js"

const HERE = dirname(import.meta.dirname)
const ROOT = join(HERE, "..", "..")
const BIN_PATH = join(HERE, "node_modules", ".bin")
/** Linked into each project, which then resolves the packages the install lines name as installed ones. */
const NODE_MODULES = join(HERE, "node_modules")
const FRAMEWORKS = ["node-http", "express", "hono", "fastify"] as const
/** The files `npx create-next-app@16 my-app --ts --app --no-tailwind --no-eslint --no-src-dir --yes` writes, page and assets left out. */
const CREATE_NEXT_APP = join(HERE, "test", "fixtures", "create-next-app")
/** The files `npx sv create my-app --template minimal --types ts` writes with adapter-node chosen, and a start script that loads `.env` as adapter-node's docs show. */
const SV_CREATE = join(HERE, "test", "fixtures", "sv-create")
/** The files `npx create-react-router@7 my-app` writes that the docs' app keeps (its app/ folder comes from the docs; styles and the welcome page left out). */
const CREATE_REACT_ROUTER = join(HERE, "test", "fixtures", "create-react-router")
/** The files a TanStack Start 1.131 app has beside its routes (vite.config.ts, tsconfig.json, src/router.tsx), as TanStack's docs lay them out: no generator is run. */
const CREATE_TANSTACK_START = join(HERE, "test", "fixtures", "create-tanstack-start")
/** The files `npm create astro@latest -- --template minimal` and `npx astro add node` write that the docs' app keeps (its pages come from the docs). */
const CREATE_ASTRO = join(HERE, "test", "fixtures", "create-astro")
/** The files `npx nuxi@3 init my-app` writes that the docs' app keeps (its pages and server files come from the docs), and a start script loading `.env` as the page says. */
const NUXI_INIT = join(HERE, "test", "fixtures", "nuxi-init")
/** The Next.js app is built inside this package, as migrate's apps are: Turbopack resolves no package outside the workspace's root. */
const APPS = join(HERE, "test", ".apps")
const ALICE = DEFAULT_ACCOUNTS[0] ?? expect.unreachable("the dev IdP has no default account")
/**
 * The apps whose pages configure GitHub alone, and the file that does: the test adds the dev IdP
 * beside it (`allowInsecureLoopbackRequests` for its plain-http loopback issuer), its one change
 * to the pages' files, so the app signs in end to end without GitHub being reached.
 */
const DEV_IDP_CONFIG_FILES: Readonly<Record<string, string>> = { nextjs: "auth.ts", sveltekit: "src/auth.ts", "react-router": "app/auth.server.ts", "tanstack-start": "src/auth.ts", astro: "auth.config.ts", nuxt: "server/auth.config.ts" }
/** Where an app's auth routes live, when not under `/api/auth`: SvelteKit's convention. */
const AUTH_PATHS: Readonly<Record<string, string>> = { sveltekit: "/auth" }
const GITHUB_ONLY = "providers: [GitHub()]"
/** The host of an app's origin: Astro reads the Host header only for the hosts its page's astro.config.mjs allows (localhost). */
const APP_HOSTS: Readonly<Record<string, string>> = { astro: "localhost" }

// The apps as the READMEs and the site's getting-started pages show them (the same text where both do: site-pages.test.ts).
const snippets: Snippet[] = mergeSnippets([...README_FILES, ...SITE_PAGES].map(readSnippets))
const self = JSON.parse(readFileSync(join(HERE, "package.json"), "utf8")) as { devDependencies: Record<string, string> }

/** The start script's environment: the process's, PATH with this package's bins, and `overrides`. */
function projectEnv(overrides: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {}
  // Nothing of this test's own AUTH_* settings may reach the app: only the .env shown does.
  // Nor vitest's NODE_ENV=test: a user's shell sets none (Next.js would build in test mode).
  for (const [name, value] of Object.entries(process.env)) if (!name.startsWith("AUTH_") && !/^npm_/i.test(name) && name !== "NODE_ENV") env[name] = value
  return { ...env, PATH: `${BIN_PATH}:${process.env.PATH ?? ""}`, NEXT_TELEMETRY_DISABLED: "1", ...overrides }
}

function script(dir: string, name: string): string {
  const manifest = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as { scripts?: Record<string, string> }
  return manifest.scripts?.[name] ?? expect.unreachable(`the README's package.json has no "${name}" script`)
}

/** Runs a package.json script as npm would (`sh -c`), failing with everything it printed. */
async function runScript(dir: string, name: string): Promise<void> {
  try {
    await promisify(execFile)("sh", ["-c", script(dir, name)], { cwd: dir, env: projectEnv() })
  } catch (error) {
    const { stdout = "", stderr = "" } = error as { stdout?: string; stderr?: string }
    throw new Error(`\`npm run ${name}\` failed in ${dir}:\n${stdout}\n${stderr}`, { cause: error })
  }
}

/** Waits until `check` holds, polling, or fails with `describe()` after `ms`. */
async function waitFor(check: () => boolean | Promise<boolean>, ms: number, describe: () => string): Promise<void> {
  const deadline = performance.now() + ms
  while (!(await Promise.resolve().then(check).catch(() => false))) {
    if (performance.now() > deadline) throw new Error(describe())
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

interface DevIdpBin {
  server: SpawnedServer
  issuer: string
}

/** Starts the workspace's `@portcullis/dev-idp` bin, as `npx @portcullis/dev-idp <args>` runs it. */
async function startDevIdpBin(args: string[]): Promise<DevIdpBin> {
  const manifestPath = createRequire(import.meta.url).resolve("@portcullis/dev-idp/package.json")
  const manifest = JSON.parse(readFileSync(manifestPath, "utf8")) as { bin: Record<string, string> }
  const [bin] = Object.values(manifest.bin)
  if (bin === undefined) throw new Error("@portcullis/dev-idp declares no bin")
  const server = spawnServer(process.execPath, [join(dirname(manifestPath), bin), ...args], {
    cwd: HERE,
    stopSignal: "SIGTERM",
    killSignal: "SIGKILL",
    outputLimit: 20_000,
    cleanup: () => undefined,
  })
  let issuer = ""
  await waitFor(
    () => {
      issuer = /^Dev IdP listening on (\S+)/m.exec(server.output())?.[1] ?? ""
      return issuer !== "" && /Stop it with/.test(server.output())
    },
    30_000,
    () => `the dev IdP did not start:\n${server.output()}`,
  )
  return { server, issuer }
}

let idp: DevIdpBin
let projects = ""
/** The Next.js and SvelteKit apps' folders, once made: removed even when their build failed. */
const frameworkApps: string[] = []
const ports = new Map<string, number>()
/** Each framework's project, written and built once, in parallel (tsc takes seconds each). */
const built = new Map<string, Promise<string>>()

beforeAll(async () => {
  const signingIn = [...FRAMEWORKS, ...Object.keys(DEV_IDP_CONFIG_FILES)]
  for (const framework of signingIn) ports.set(framework, await freePort())
  const redirects = signingIn.flatMap((framework) => ["--redirect-uri", `${appOrigin(framework)}${AUTH_PATHS[framework] ?? "/api/auth"}/callback/dev-idp`])
  idp = await startDevIdpBin(["--port", "0", ...redirects])
  projects = await mkdtemp(join(tmpdir(), "portcullis-snippets-"))
  for (const framework of FRAMEWORKS) {
    const project = (async () => {
      const dir = join(projects, framework)
      await mkdir(dir)
      await symlink(NODE_MODULES, join(dir, "node_modules"), "dir")
      for (const [file, text] of projectFiles(snippets, framework)) {
        await mkdir(dirname(join(dir, file)), { recursive: true })
        await writeFile(join(dir, file), asFilledIn(file, text))
      }
      await runScript(dir, "build")
      return dir
    })()
    // Awaited by the framework's tests; a failure must not also surface as an unhandled rejection.
    project.catch(() => undefined)
    built.set(framework, project)
  }
  const nextjs = buildFrameworkApp("nextjs", CREATE_NEXT_APP)
  nextjs.catch(() => undefined)
  built.set("nextjs", nextjs)
  const sveltekit = buildFrameworkApp("sveltekit", SV_CREATE)
  sveltekit.catch(() => undefined)
  built.set("sveltekit", sveltekit)
  const reactRouter = buildFrameworkApp("react-router", CREATE_REACT_ROUTER)
  reactRouter.catch(() => undefined)
  built.set("react-router", reactRouter)
  const tanstackStart = buildFrameworkApp("tanstack-start", CREATE_TANSTACK_START)
  tanstackStart.catch(() => undefined)
  built.set("tanstack-start", tanstackStart)
  const astro = buildFrameworkApp("astro", CREATE_ASTRO)
  astro.catch(() => undefined)
  built.set("astro", astro)
  const nuxt = buildFrameworkApp("nuxt", NUXI_INIT)
  nuxt.catch(() => undefined)
  built.set("nuxt", nuxt)
})

/**
 * A framework's app as its generator writes it (`fixture`), then the docs' files of `framework`
 * over it, then what `npm install` of the docs' install line does (package.json names the
 * packages, node_modules holds the workspace's; the framework itself resolves from this package's
 * node_modules above it), then the `build` script (`next build`, `vite build`).
 */
async function buildFrameworkApp(framework: "nextjs" | "sveltekit" | "react-router" | "tanstack-start" | "astro" | "nuxt", fixture: string): Promise<string> {
  await mkdir(APPS, { recursive: true })
  const dir = await mkdtemp(join(APPS, `${framework}-`))
  frameworkApps.push(dir)
  await cp(fixture, dir, { recursive: true })
  for (const [file, text] of projectFiles(snippets, framework, { shared: false })) {
    await mkdir(dirname(join(dir, file)), { recursive: true })
    await writeFile(join(dir, file), file === DEV_IDP_CONFIG_FILES[framework] ? withDevIdp(file, text) : asFilledIn(file, text))
  }
  const install = snippets.find((snippet) => snippet.framework === framework && snippet.file === "install") ?? expect.unreachable(`no <!-- snippet: ${framework}/install --> block`)
  const manifest = JSON.parse(await readFile(join(dir, "package.json"), "utf8")) as { dependencies?: Record<string, string> }
  const { dependencies } = installedPackages(install)
  manifest.dependencies ??= {}
  for (const name of dependencies) {
    const { version } = JSON.parse(await readFile(join(ROOT, "packages", name.replace("@portcullis/", ""), "package.json"), "utf8")) as { version: string }
    manifest.dependencies[name] = `^${version}`
  }
  await writeFile(join(dir, "package.json"), `${JSON.stringify(manifest, null, 2)}\n`)
  linkWorkspacePackages(dir, dependencies)
  const started = performance.now()
  await runScript(dir, "build")
  console.info(`building the docs' ${framework} app took ${((performance.now() - started) / 1000).toFixed(1)} s`)
  return dir
}

/** An app's origin on its port. */
function appOrigin(framework: string): string {
  return `http://${APP_HOSTS[framework] ?? "127.0.0.1"}:${String(ports.get(framework) ?? expect.unreachable(`no port for ${framework}`))}`
}

/**
 * The page's auth configuration with the dev IdP's provider after GitHub's, as the getting-started
 * page's `auth.ts` writes it (issuer, client id and secret from `AUTH_DEV_IDP_*`).
 *
 * @throws Error when the file configures other than GitHub alone: the test would sign in to another app than the page's.
 */
function withDevIdp(file: string, text: string): string {
  if (text.split(GITHUB_ONLY).length !== 2) throw new Error(`${file}: expected one \`${GITHUB_ONLY}\`, the provider the test adds the dev IdP beside`)
  return text.replace(GITHUB_ONLY, `providers: [GitHub(), { id: "dev-idp", name: "Dev IdP", type: "oidc", allowInsecureLoopbackRequests: true }]`)
}

afterAll(async () => {
  await idp.server.stop()
  if (projects !== "") await rm(projects, { recursive: true, force: true })
  for (const dir of frameworkApps) await rm(dir, { recursive: true, force: true })
})

describe("the dev IdP's bin", () => {
  it("prints the .env lines the README shows, and nothing on stderr (no oidc-provider runtime warning)", () => {
    const env = snippets.find((snippet) => snippet.framework === "shared" && snippet.file === ".env")?.text ?? ""
    const printed = idp.server.output()
    for (const line of printed.split("\n").filter((candidate) => /^\s+AUTH_DEV_IDP_(ID|SECRET)=/.test(candidate))) expect(env).toContain(`${line.trim()}\n`)
    expect(env).toContain("AUTH_DEV_IDP_ISSUER=http://127.0.0.1:4400\n")
    expect(printed).not.toMatch(/WARNING|Unsupported runtime/)
  })
})

describe("the README's Next.js app", () => {
  const files = projectFiles(snippets, "nextjs", { shared: false })
  const github = "https://github.com/login/oauth/authorize"
  /** What the README's .env.local sets, as Next.js reads it. */
  const dotenv = new Map([...(files.get(".env.local") ?? "").matchAll(/^(\w+)=(\S*)/gm)].map(([, name = "", value = ""]) => [name, value]))

  it("is the set-up, page and .env.local the READMEs show, with an install line naming what they import", async () => {
    expect([...files.keys()].sort()).toEqual([".env.local", "app/api/auth/[...nextauth]/route.ts", "app/page.tsx", "auth.ts"])
    const install = snippets.find((snippet) => snippet.framework === "nextjs" && snippet.file === "install")
    const { dependencies } = installedPackages(install ?? expect.unreachable("README.md: no <!-- snippet: nextjs/install --> block"))
    const created = JSON.parse(await readFile(join(CREATE_NEXT_APP, "package.json"), "utf8")) as { dependencies: Record<string, string> }
    const sources = [...files].filter(([file]) => /\.tsx?$/.test(file)).map(([, text]) => text)
    for (const name of sources.flatMap(importedPackages)) expect([...dependencies, ...Object.keys(created.dependencies)], `the Next.js app imports ${name}`).toContain(name)
    // @portcullis/nextjs's peer: npm installs it, but the README names it for pnpm and older npm.
    expect(dependencies).toContain("@portcullis/core")
    expect([...dotenv.keys()].sort()).toEqual(["AUTH_GITHUB_ID", "AUTH_GITHUB_SECRET", "AUTH_SECRET", "AUTH_URL"])
    // Left for the reader to fill with the command named above it: a placeholder would be refused.
    expect(dotenv.get("AUTH_SECRET")).toBe("")
    expect(asFilledIn(".env.local", files.get(".env.local") ?? "")).toMatch(/^AUTH_SECRET=[A-Za-z0-9+/]{43}=$/m)
  })

  it("builds with next build (type check included) and runs under next start: the page signed out, its sign-in up to GitHub, the session routes, and signs in through the dev IdP to the page with the session's user", { timeout: 240_000 }, async () => {
    const dir = await (built.get("nextjs") ?? expect.unreachable())
    const port = ports.get("nextjs") ?? expect.unreachable()
    const app = appOrigin("nextjs")
    // Next.js keeps what the environment sets over .env.local: only the origin differs from it, and the dev IdP's lines are added.
    const server = spawnServer("sh", ["-c", script(dir, "start")], {
      cwd: dir,
      env: projectEnv({ ...devIdpEnv(), PORT: String(port), AUTH_URL: app }),
      stopSignal: "SIGTERM",
      killSignal: "SIGKILL",
      outputLimit: 20_000,
      cleanup: () => undefined,
    })
    try {
      await waitFor(async () => (await fetch(`${app}/api/auth/providers`)).ok, 60_000, () => `next start did not answer:\n${server.output()}`)
      // GitHub is never called: its authorize page is where its sign-in stops.
      const authorizeUrls: URL[] = []
      const browser = gitHubStubBrowser(authorizeUrls)

      const home = await browser.navigate(`${app}/`)
      expect(home.response.status).toBe(200)
      expect(home.body).toContain("<p>Signed out</p>")
      expect(home.body).not.toContain("Signed in as")

      // The page's server action, as a browser without JavaScript submits it: signIn() sends the
      // visitor to the sign-in page, whose GitHub button posts to /api/auth/signin/github.
      const signInPage = await browser.submitForm(home, { button: "Sign in" })
      expect(new URL(signInPage.url).pathname, signInPage.body.slice(0, 500)).toBe("/api/auth/signin")
      const atGitHub = await browser.submitForm(signInPage, { button: "Sign in with GitHub" })
      expect(atGitHub.redirects.map((hop) => new URL(hop).pathname)).toContain("/api/auth/signin/github")
      const authorize = authorizeUrls.at(-1) ?? expect.unreachable(`the sign-in never reached GitHub: it ended at ${atGitHub.url}`)
      expect(`${authorize.origin}${authorize.pathname}`).toBe(github)
      const { code_challenge: challenge, ...params } = Object.fromEntries(authorize.searchParams)
      // GitHub's provider checks PKCE (core's default), not state: S256 of a verifier that waits
      // in a cookie for the callback.
      expect(challenge).toMatch(/^[\w-]{43}$/)
      expect(params).toEqual({
        response_type: "code",
        client_id: dotenv.get("AUTH_GITHUB_ID"),
        redirect_uri: `${app}/api/auth/callback/github`,
        scope: "read:user user:email",
        code_challenge_method: "S256",
      })
      expect(browser.cookies(app).map((cookie) => cookie.name)).toContain("authjs.pkce.code_verifier")

      const session = await fetch(`${app}/api/auth/session`)
      expect(session.status).toBe(200)
      expect(await session.json()).toBeNull()
      await expectGitHubAndDevIdp(app, "/api/auth")
      // The page's server action again, to the sign-in page's dev IdP button: back on the page, signed in.
      const openSignInPage = async (signingIn: TestBrowser) => signingIn.submitForm(await signingIn.navigate(`${app}/`), { button: "Sign in" })
      await signInThroughDevIdp(app, server, { openSignInPage, landing: { path: "/", shows: `Signed in as ${ALICE.email}` } })
      // Nothing logged: core logs every failure it handles, Next.js every render error (⨯).
      expect(server.output()).not.toMatch(/error|⨯|warn/i)
    } finally {
      await server.stop()
    }
  })
})

/**
 * Each package a framework app's files import (those whose name `sources` matches) is named by the
 * page's install line or by the generator's package.json, and installed in this package.
 */
async function expectInstalledImports(framework: string, fixture: string, files: Map<string, string>, sources = /\.tsx?$/): Promise<void> {
  const install = snippets.find((snippet) => snippet.framework === framework && snippet.file === "install") ?? expect.unreachable(`no <!-- snippet: ${framework}/install --> block`)
  const { dependencies } = installedPackages(install)
  const generated = JSON.parse(await readFile(join(fixture, "package.json"), "utf8")) as { dependencies: Record<string, string>; devDependencies?: Record<string, string> }
  const names = [...Object.keys(generated.dependencies), ...Object.keys(generated.devDependencies ?? {})]
  const texts = [...files].filter(([file]) => sources.test(file)).map(([, text]) => text)
  for (const name of texts.flatMap(importedPackages)) expect([...dependencies, ...names], `the ${framework} app imports ${name}`).toContain(name)
  for (const name of [...dependencies, ...names]) expect(Object.keys(self.devDependencies), `add ${name} to packages/docs-test`).toContain(name)
}

/** The `NAME=value` lines of an `.env` file. */
function readDotenv(text: string): Record<string, string> {
  return Object.fromEntries(text.split("\n").filter((line) => /^\w+=/.test(line)).map((line) => [line.slice(0, line.indexOf("=")), line.slice(line.indexOf("=") + 1)]))
}

/**
 * The dev IdP's lines of the getting-started page's `.env` with this run's issuer: what an app the
 * test gave the dev IdP's provider reads, set in its environment (its own `.env` names GitHub alone).
 */
function devIdpEnv(): Record<string, string> {
  const shared = snippets.find((snippet) => snippet.framework === "shared" && snippet.file === ".env") ?? expect.unreachable("no <!-- snippet: shared/.env --> block")
  const lines = Object.entries(readDotenv(shared.text)).filter(([name]) => name.startsWith("AUTH_DEV_IDP_"))
  return { ...Object.fromEntries(lines), AUTH_DEV_IDP_ISSUER: idp.issuer }
}

/** The app's providers route lists the pages' GitHub and the dev IdP the test added, with their routes under `authPath`. */
async function expectGitHubAndDevIdp(app: string, authPath: string): Promise<void> {
  const providers = (await (await fetch(`${app}${authPath}/providers`)).json()) as Record<string, unknown>
  expect(providers).toEqual({
    github: { id: "github", name: "GitHub", type: "oauth", signinUrl: `${app}${authPath}/signin/github`, callbackUrl: `${app}${authPath}/callback/github` },
    "dev-idp": { id: "dev-idp", name: "Dev IdP", type: "oidc", signinUrl: `${app}${authPath}/signin/dev-idp`, callbackUrl: `${app}${authPath}/callback/dev-idp` },
  })
}

/**
 * Starts a built framework app with its `start` script (or `command`), its `.env` lines in the environment (the
 * servers read no `.env` file, as the pages say) with this origin and the dev IdP's lines of the
 * getting-started page's `.env` (this run's issuer), and waits until it lists the GitHub provider
 * the pages configure and the dev IdP beside it.
 */
async function startBuiltApp(framework: string, command?: [string, string[]]): Promise<{ app: string; server: SpawnedServer }> {
  const dir = await (built.get(framework) ?? expect.unreachable())
  const port = ports.get(framework) ?? expect.unreachable()
  const app = appOrigin(framework)
  const dotenv = readDotenv(await readFile(join(dir, ".env"), "utf8"))
  const [file, args] = command ?? ["sh", ["-c", script(dir, "start")]]
  const server = spawnServer(file, args, {
    cwd: dir,
    env: projectEnv({ ...dotenv, ...devIdpEnv(), PORT: String(port), HOST: "127.0.0.1", AUTH_URL: app, NODE_ENV: "production" }),
    stopSignal: "SIGTERM",
    killSignal: "SIGKILL",
    outputLimit: 20_000,
    cleanup: () => undefined,
  })
  try {
    await waitFor(async () => (await fetch(`${app}/api/auth/providers`)).ok, 30_000, () => `the ${framework} app did not answer:\n${server.output()}`)
    await expectGitHubAndDevIdp(app, "/api/auth")
  } catch (error) {
    await server.stop()
    throw error
  }
  return { app, server }
}

describe("the React Router app of the README and the site", () => {
  const files = projectFiles(snippets, "react-router", { shared: false })

  it("is the install line, the routes, root and .env the page shows, the install line naming what they import beside the framework", async () => {
    expect([...files.keys()].sort()).toEqual([".env", "app/auth.server.ts", "app/root.tsx", "app/routes.ts", "app/routes/api.auth.$.ts", "app/routes/home.tsx", "app/routes/profile.tsx"])
    await expectInstalledImports("react-router", CREATE_REACT_ROUTER, files)
  })

  it("builds with react-router build, and react-router-serve answers GET /api/auth/providers, the page signed out, /profile's redirect, its form action's sign-in up to GitHub, and signs in through the dev IdP to /profile and the page with the session's user", { timeout: 120_000 }, async () => {
    const { app, server } = await startBuiltApp("react-router")
    try {
      const home = await fetch(`${app}/`)
      expect(home.status).toBe(200)
      const body = await home.text()
      expect(body).not.toContain("Signed in as")
      expect(body).toContain('name="providerId" value="github"')
      const profile = await fetch(`${app}/profile`, { redirect: "manual" })
      expect(profile.headers.get("location")).toBe("/api/auth/signin?callbackUrl=/profile")
      // The form posted as a browser without JavaScript posts it: the action starts the sign-in at GitHub (never reached).
      const started = await fetch(`${app}/?index`, { method: "POST", body: new URLSearchParams({ providerId: "github" }), headers: { origin: app, accept: "text/html" }, redirect: "manual" })
      const authorize = new URL(started.headers.get("location") ?? expect.unreachable(`the action answered ${String(started.status)}:\n${server.output()}`))
      expect(`${authorize.origin}${authorize.pathname}`).toBe("https://github.com/login/oauth/authorize")
      expect(authorize.searchParams.get("redirect_uri")).toBe(`${app}/api/auth/callback/github`)
      await signInThroughDevIdp(app, server)
      expect(server.output()).not.toMatch(/error/i)
    } finally {
      await server.stop()
    }
  })
})

/** A browser that reaches every origin but GitHub's, whose authorize requests it records in `authorizeUrls` and answers itself. */
function gitHubStubBrowser(authorizeUrls: URL[]): TestBrowser {
  return new TestBrowser({
    fetch: (request) => {
      if (!request.url.startsWith("https://github.com/")) return fetch(request)
      authorizeUrls.push(new URL(request.url))
      return Promise.resolve(new Response("GitHub's sign-in page"))
    },
  })
}

/**
 * Opens the app's `/profile` signed out, as a browser without JavaScript: the sign-in page it is
 * sent to, whose GitHub button starts the sign-in at GitHub (never reached) with the app's callback.
 */
async function signInUpToGitHub(app: string, server: SpawnedServer): Promise<Page> {
  const authorizeUrls: URL[] = []
  const browser = gitHubStubBrowser(authorizeUrls)
  const signInPage = await browser.navigate(`${app}/profile`)
  expect(new URL(signInPage.url).pathname).toBe("/api/auth/signin")
  await browser.submitForm(signInPage, { button: "Sign in with GitHub" })
  const authorize = authorizeUrls.at(-1) ?? expect.unreachable(`the sign-in never reached GitHub:\n${server.output()}`)
  expect(`${authorize.origin}${authorize.pathname}`).toBe("https://github.com/login/oauth/authorize")
  expect(authorize.searchParams.get("redirect_uri")).toBe(`${app}/api/auth/callback/github`)
  return signInPage
}

/** A page's text as a reader sees it: without the comments React and Vue put between text parts. */
function visibleText(body: string): string {
  return body.replace(/<!--.*?-->/gs, "")
}

/** How an app's signed-out visitor reaches the sign-in page, and the page the sign-in comes back to with what it shows of the user. */
interface DevIdpSignIn {
  /** By default `/profile`, which redirects to the sign-in page. */
  openSignInPage?: (browser: TestBrowser, app: string) => Promise<Page>
  /** By default `/profile`, reading the session. */
  landing?: { path: string; shows: string }
}

/** A signed-out visit to `/profile`: the sign-in page it redirects to. */
async function viaProfile(browser: TestBrowser, app: string): Promise<Page> {
  const signInPage = await browser.navigate(`${app}/profile`)
  expect(new URL(signInPage.url).pathname).toBe("/api/auth/signin")
  return signInPage
}

/**
 * Brings a browser without JavaScript to the app's sign-in page (by default through `/profile`)
 * and signs in with its dev IdP button, as Alice on the IdP's login and consent pages: back on the
 * landing page (by default `/profile`), the page reads her session, and so does the home page.
 */
async function signInThroughDevIdp(app: string, server: SpawnedServer, { openSignInPage = viaProfile, landing = { path: "/profile", shows: `Profile of ${ALICE.email}` } }: DevIdpSignIn = {}): Promise<void> {
  const browser = new TestBrowser()
  const signInPage = await openSignInPage(browser, app)
  const login = await browser.submitForm(signInPage, { formIndex: 1, button: "Sign in with Dev IdP" })
  expect(new URL(login.url).origin, `${login.body.slice(0, 500)}\n${server.output()}`).toBe(idp.issuer)
  const consent = await browser.submitForm(login, { values: { login: ALICE.email, password: ALICE.password } })
  const landed = await browser.submitForm(consent, { button: "Allow" })
  expect(landed.url, `${landed.body.slice(0, 1000)}\n${server.output()}`).toBe(`${app}${landing.path}`)
  expect(visibleText(landed.body)).toContain(landing.shows)
  expect(visibleText((await browser.navigate(`${app}/`)).body)).toContain(`Signed in as ${ALICE.email}`)
}

describe("the Astro app of the README and the site", () => {
  const files = projectFiles(snippets, "astro", { shared: false })

  it("is the install line, config, pages and .env the page shows, the install line naming what they import beside the framework", async () => {
    expect([...files.keys()].sort()).toEqual([".env", "astro.config.mjs", "auth.config.ts", "src/pages/index.astro", "src/pages/profile.astro"])
    // The pages' frontmatter imports too: what lies between the two fences.
    await expectInstalledImports("astro", CREATE_ASTRO, files, /\.(ts|mjs|astro)$/)
  })

  it("builds with astro build, and its standalone server answers GET /api/auth/providers, the page signed out, /profile's redirect, the sign-in up to GitHub, and signs in through the dev IdP to /profile and the page with the session's user, Astro's origin check on", { timeout: 120_000 }, async () => {
    // The standalone server, started as the page says.
    const { app, server } = await startBuiltApp("astro", [process.execPath, ["./dist/server/entry.mjs"]])
    try {
      const home = await gitHubStubBrowser([]).navigate(`${app}/`)
      expect(home.body).toContain("Sign in with GitHub")
      expect(home.body).not.toContain("Signed in as")
      // The built-in page's form posts from the app's origin, which Astro's origin check lets through.
      const signInPage = await signInUpToGitHub(app, server)
      expect(new URL(signInPage.url).searchParams.get("callbackUrl")).toBe("/profile")
      await signInThroughDevIdp(app, server)
      expect(server.output()).not.toMatch(/error/i)
    } finally {
      await server.stop()
    }
  })
})

describe("the Nuxt app of the README and the site", () => {
  const files = projectFiles(snippets, "nuxt", { shared: false })

  it("is the install line, the config, pages, server files and .env the page shows, the install line naming what they import beside the framework", async () => {
    expect([...files.keys()].sort()).toEqual([".env", "app.vue", "nuxt.config.ts", "pages/index.vue", "pages/profile.vue", "server/api/me.get.ts", "server/auth.config.ts"])
    // Its .vue files import nothing: Nuxt auto-imports the composables they call.
    await expectInstalledImports("nuxt", NUXI_INIT, files, /\.ts$/)
  })

  it("builds with nuxt build, and its server answers GET /api/auth/providers, the page signed out, /profile's redirect, the sign-in page's button up to GitHub, and signs in through the dev IdP to /profile and the page with the session's user", { timeout: 120_000 }, async () => {
    // The start script's `node --env-file` keeps what the environment sets: only the origin differs from the page's .env.
    const { app, server } = await startBuiltApp("nuxt")
    try {
      const home = await fetch(`${app}/`)
      expect(home.status).toBe(200)
      const body = await home.text()
      expect(body).not.toContain("Signed in as")
      expect(body).toContain("Sign in with GitHub")
      const profile = await fetch(`${app}/profile`, { redirect: "manual" })
      expect(profile.headers.get("location")).toBe("/api/auth/signin?callbackUrl=%2Fprofile")
      // The sign-in page the middleware sends to, as a browser without JavaScript submits it (GitHub never reached).
      await signInUpToGitHub(app, server)
      await signInThroughDevIdp(app, server)
      expect(server.output()).not.toMatch(/error/i)
    } finally {
      await server.stop()
    }
  })
})

describe("the site's SvelteKit app", () => {
  const files = projectFiles(snippets, "sveltekit", { shared: false })

  it("is the install line, hooks, routes and .env the getting-started page shows, the install line naming what they import", () => {
    expect([...files.keys()].sort()).toEqual([".env", "src/auth.ts", "src/hooks.server.ts", "src/routes/+layout.server.ts", "src/routes/+page.svelte", "src/routes/signin/+page.server.ts"])
    const install = snippets.find((snippet) => snippet.framework === "sveltekit" && snippet.file === "install") ?? expect.unreachable()
    const { dependencies } = installedPackages(install)
    const sources = [...files].filter(([file]) => /\.(ts|svelte)$/.test(file)).map(([, text]) => text)
    // `$app/*` and `./$types` are SvelteKit's own modules, not packages.
    for (const name of sources.flatMap(importedPackages).filter((name) => !name.startsWith("$"))) expect(dependencies, `the SvelteKit app imports ${name}`).toContain(name)
    for (const name of dependencies) expect(Object.keys(self.devDependencies), `add ${name} to packages/docs-test`).toContain(name)
  })

  it("builds with vite build on adapter-node, and its server answers GET /auth/providers, the page signed out, its sign-in form up to GitHub, and signs in through the dev IdP to the page with the session's user", { timeout: 120_000 }, async () => {
    const dir = await (built.get("sveltekit") ?? expect.unreachable())
    const port = ports.get("sveltekit") ?? expect.unreachable()
    const app = appOrigin("sveltekit")
    // `node --env-file` keeps what the environment sets: only the origin differs from the page's .env, and the dev IdP's lines are added.
    const server = spawnServer("sh", ["-c", script(dir, "start")], {
      cwd: dir,
      // ORIGIN: adapter-node cannot tell http from https on its own, and SvelteKit checks form posts against it.
      env: projectEnv({ ...devIdpEnv(), PORT: String(port), HOST: "127.0.0.1", ORIGIN: app, AUTH_URL: app }),
      stopSignal: "SIGTERM",
      killSignal: "SIGKILL",
      outputLimit: 20_000,
      cleanup: () => undefined,
    })
    try {
      await waitFor(async () => (await fetch(`${app}/auth/providers`)).ok, 30_000, () => `the SvelteKit app did not answer:\n${server.output()}`)
      await expectGitHubAndDevIdp(app, "/auth")
      const home = await fetch(`${app}/`)
      expect(home.status).toBe(200)
      const body = await home.text()
      expect(body).not.toContain("Signed in as")
      // The SignIn component: a form posting to the page's signin action, naming the provider.
      expect(body).toMatch(/<form method="POST" action="\.\/signin"[^>]*><input type="hidden" name="providerId" value="github"\/>/)
      // Submitting it, as a browser without JavaScript does, starts the sign-in at GitHub (never reached).
      const started = await fetch(`${app}/signin`, { method: "POST", body: new URLSearchParams({ providerId: "github" }), headers: { origin: app, accept: "text/html" }, redirect: "manual" })
      const authorize = new URL(started.headers.get("location") ?? expect.unreachable(`the signin action answered ${String(started.status)}`))
      expect(`${authorize.origin}${authorize.pathname}`).toBe("https://github.com/login/oauth/authorize")
      expect(authorize.searchParams.get("redirect_uri")).toBe(`${app}/auth/callback/github`)
      // The page links to no sign-in page (its form names GitHub): the visitor opens the built-in one under /auth.
      const openSignInPage = (signingIn: TestBrowser) => signingIn.navigate(`${app}/auth/signin`)
      await signInThroughDevIdp(app, server, { openSignInPage, landing: { path: "/", shows: `Signed in as ${ALICE.email}` } })
      expect(server.output()).not.toMatch(/error/i)
    } finally {
      await server.stop()
    }
  })
})

describe.each(FRAMEWORKS)("the README's %s app", (framework) => {
  const install = snippets.find((snippet) => snippet.framework === framework && snippet.file === "install")

  it("has an install line naming every package it imports, its types and the dev IdP", () => {
    expect(install, `README.md: no <!-- snippet: ${framework}/install --> block`).toBeDefined()
    const { dependencies, devDependencies } = installedPackages(install ?? expect.unreachable())
    const sources = [...projectFiles(snippets, framework)].filter(([file]) => file.endsWith(".ts")).map(([, text]) => text)
    for (const name of sources.flatMap(importedPackages)) expect(dependencies, `${framework} imports ${name}`).toContain(name)
    expect(devDependencies).toEqual(expect.arrayContaining(["@portcullis/dev-idp", "typescript", "@types/node"]))
    if (dependencies.includes("express")) expect(devDependencies).toContain("@types/express")
    // What the line installs is what this test resolves the project against.
    for (const name of [...dependencies, ...devDependencies]) expect(Object.keys(self.devDependencies), `add ${name} to packages/docs-test`).toContain(name)
  })

  it("type-checks with the tsconfig shown, starts with the start script shown, and signs in, out and back", async () => {
    const dir = await (built.get(framework) ?? expect.unreachable())
    const port = ports.get(framework) ?? expect.unreachable()
    const app = appOrigin(framework)
    // `node --env-file` keeps what the environment already sets: only where this run differs
    // from the README's .env (the ports) is set here; the secret and client come from the file.
    const server = spawnServer("sh", ["-c", script(dir, "start")], {
      cwd: dir,
      env: projectEnv({ PORT: String(port), AUTH_URL: app, AUTH_DEV_IDP_ISSUER: idp.issuer }),
      stopSignal: "SIGTERM",
      killSignal: "SIGKILL",
      outputLimit: 20_000,
      cleanup: () => undefined,
    })
    try {
      await waitFor(async () => (await fetch(app)).ok, 30_000, () => `the ${framework} app did not answer:\n${server.output()}`)
      const browser = new TestBrowser()
      const home = await browser.navigate(`${app}/`)
      expect(home.body).toContain(`<a href="/api/auth/signin">Sign in</a>`)

      // The protected route sends a signed-out visitor to the sign-in page, then back.
      const signInPage = await browser.navigate(`${app}/me`)
      expect(new URL(signInPage.url).pathname).toBe("/api/auth/signin")
      const login = await browser.submitForm(signInPage)
      expect(new URL(login.url).origin, login.body.slice(0, 500)).toBe(idp.issuer)
      const consent = await browser.submitForm(login, { values: { login: ALICE.email, password: ALICE.password } })
      const me: Page = await browser.submitForm(consent, { button: "Allow" })
      expect(me.url, me.body.slice(0, 1000)).toBe(`${app}/me`)
      expect(JSON.parse(me.body)).toMatchObject({ user: { email: ALICE.email, name: ALICE.name } })
      expect((await browser.navigate(`${app}/`)).body).toContain(`<a href="/api/auth/signout">Sign out</a>`)

      const signOutPage = await browser.navigate(`${app}/api/auth/signout`)
      await browser.submitForm(signOutPage)
      expect(new URL((await browser.navigate(`${app}/me`)).url).pathname).toBe("/api/auth/signin")

      // Core knows who is asking (the per-client limits count the client), so no ClientAddressUnknown
      // waits for the app once it leaves loopback: the 31st sign-in start of a minute is refused.
      const starts: number[] = []
      for (let i = 0; i < 31; i++) {
        const csrf = await fetch(`${app}/api/auth/csrf`)
        const { csrfToken } = (await csrf.json()) as { csrfToken: string }
        const cookie = csrf.headers.getSetCookie().map((header) => header.split(";")[0]).join("; ")
        const body = new URLSearchParams({ csrfToken })
        starts.push((await fetch(`${app}/api/auth/signin/dev-idp`, { method: "POST", body, headers: { cookie, origin: app }, redirect: "manual" })).status)
      }
      expect(starts.at(-1), String(starts)).toBe(429)
      // Nothing logged: core logs every failure it handles.
      expect(server.output()).not.toMatch(/error/i)
    } finally {
      await server.stop()
    }
  })
})

describe("the TanStack Start app of the README and the site", () => {
  const files = projectFiles(snippets, "tanstack-start", { shared: false })

  it("is the install line, the routes, server functions and .env the page shows, the install line naming what they import beside the framework", async () => {
    expect([...files.keys()].sort()).toEqual([".env", "src/auth.ts", "src/routes/__root.tsx", "src/routes/api/auth/$.ts", "src/routes/index.tsx", "src/routes/profile.tsx", "src/session.ts"])
    await expectInstalledImports("tanstack-start", CREATE_TANSTACK_START, files)
  })

  it("builds with vite build, and the built server answers GET /api/auth/providers, the page signed out, /profile's redirect, the sign-in form's server function up to GitHub, and signs in through the dev IdP to /profile and the page with the session's user", { timeout: 120_000 }, async () => {
    const { app, server } = await startBuiltApp("tanstack-start")
    try {
      const body = await (await fetch(`${app}/`)).text()
      expect(body).not.toContain("Signed in as")
      expect(body).toContain('name="providerId" value="github"')
      const profile = await fetch(`${app}/profile`, { redirect: "manual" })
      expect(new URL(profile.headers.get("location") ?? "", app).href).toBe(`${app}/api/auth/signin?callbackUrl=/profile`)
      // The form posted as a browser without JavaScript posts it: the server function starts the sign-in at GitHub (never reached).
      const action = /<form action="([^"]+)"/.exec(body)?.[1] ?? expect.unreachable("no form on the page")
      const form = new FormData()
      form.set("providerId", "github")
      const started = await fetch(`${app}${action}`, { method: "POST", body: form, headers: { origin: app }, redirect: "manual" })
      const authorize = new URL(started.headers.get("location") ?? expect.unreachable(`the server function answered ${String(started.status)}:\n${server.output()}`))
      expect(`${authorize.origin}${authorize.pathname}`).toBe("https://github.com/login/oauth/authorize")
      expect(authorize.searchParams.get("redirect_uri")).toBe(`${app}/api/auth/callback/github`)
      await signInThroughDevIdp(app, server)
      expect(server.output()).not.toMatch(/error/i)
    } finally {
      await server.stop()
    }
  })
})
