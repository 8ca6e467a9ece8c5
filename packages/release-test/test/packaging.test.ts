/**
 * What every published package must declare for separate pinning and clean tarballs; fast
 * checks on the work tree, before the rehearsal publishes anything.
 */
import { join } from "node:path"
import semver from "semver"
import { describe, expect, it } from "vitest"
import { run } from "./run.js"
import { ROOT, publishedPackages, readManifest, type WorkspacePackage } from "./workspace.js"

const published = await publishedPackages()
const names = new Set(published.map(({ manifest }) => manifest.name))
const versionOf = new Map(published.map(({ manifest }) => [manifest.name, manifest.version]))

/** What `npm pack` would put in each tarball, listed for all packages at once (one npm each). */
const packedFiles = new Map(
  published.map(({ dir, manifest }) => {
    const listing = run("npm", ["pack", "--dry-run", "--json", "--ignore-scripts"], { cwd: join(ROOT, dir), env: process.env }).then(({ stdout }) => {
      const [packed] = JSON.parse(stdout) as [{ files: { path: string }[] }]
      return packed.files.map((file) => file.path)
    })
    // Awaited by the package's test; a failure must not also surface as an unhandled rejection.
    listing.catch(() => undefined)
    return [manifest.name, listing]
  }),
)

describe.each(published.map((pkg) => [pkg.manifest.name, pkg] as [string, WorkspacePackage]))("%s", (name, { manifest }) => {
  it("is built before the rehearsal runs: a devDependency of @portcullis/release-test", async () => {
    const self = await readManifest(join(ROOT, "packages", "release-test"))
    expect(self.devDependencies?.[name], `add "${name}": "workspace:*" to packages/release-test/package.json`).toBe("workspace:*")
  })

  it("packs LICENSE, README.md and its dist", async () => {
    const files = (await packedFiles.get(name)) ?? []
    expect(files).toContain("LICENSE")
    expect(files).toContain("README.md")
    expect(files.some((file) => file.startsWith("dist/"))).toBe(true)
  })

  it("packs its CHANGELOG.md, so users read what each release changed", async () => {
    const files = (await packedFiles.get(name)) ?? []
    expect(files, `run \`pnpm changeset version\` and list "CHANGELOG.md" in ${name}'s files`).toContain("CHANGELOG.md")
  })

  it("peer-depends on other published packages with an explicit range up to the next major", () => {
    for (const [peer, range] of Object.entries(manifest.peerDependencies ?? {})) {
      if (!names.has(peer)) continue
      const plain = range.replace(/^workspace:/, "")
      // `workspace:^` publishes as ^<current>, which for 0.x shuts out the next minor.
      expect(range, `${peer}: "workspace:" and a range`).toMatch(/^workspace:/)
      expect(semver.validRange(plain), `${peer}: "${range}" is a range`).not.toBeNull()
      expect(["^", "~", "*"].includes(plain), `${peer}: "${range}" must spell out its bounds`).toBe(false)
      const current = versionOf.get(peer) ?? ""
      expect(semver.satisfies(current, plain), `${peer}: "${range}" accepts ${current}`).toBe(true)
      expect(semver.satisfies(semver.inc(current, "minor") ?? "", plain), `${peer}: "${range}" accepts the next minor`).toBe(true)
      const nextMajor = `${String(semver.major(current) + 1)}.0.0`
      expect(semver.satisfies(nextMajor, plain), `${peer}: "${range}" stops before ${nextMajor}, which may break the contract`).toBe(false)
    }
  })

  it("installs no optional integration for everyone: nodemailer is an optional peer", () => {
    expect(Object.keys(manifest.dependencies ?? {})).not.toContain("nodemailer")
    if (manifest.peerDependencies?.nodemailer !== undefined) expect(manifest.peerDependenciesMeta?.nodemailer?.optional).toBe(true)
  })
})
