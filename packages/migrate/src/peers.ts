/**
 * Whether an app's frameworks fit the peer ranges of the packages the codemod moves it to. npm
 * refuses to install a package whose peer range the app's version is outside (ERESOLVE), and
 * counts no prerelease as inside a range (`next@canary` is not in `^16`), so the codemod decides
 * this before it writes anything, and stops with the step that must come first.
 */
import semver from "semver"

/** npm's own reading of versions and ranges for peers: loose, prereleases outside every range. */
const LOOSE = { loose: true } as const

/** How to reach the first major a range accepts, for the frameworks whose majors change an app's code. */
const UPGRADES: Readonly<Record<string, (major: number) => string>> = {
  svelte: (major) => `upgrade Svelte to ${String(major)} first: \`npx sv migrate svelte-${String(major)}\``,
  "@sveltejs/kit": (major) => `upgrade SvelteKit to ${String(major)} first: \`npx sv migrate sveltekit-${String(major)}\``,
  next: (major) => `upgrade Next.js to ${String(major)} first: \`npx @next/codemod@canary upgrade latest\``,
}

/** The companion packages installed in step with a framework. */
const COMPANIONS: Readonly<Record<string, string>> = { react: "react-dom" }

/** What an app has of one peer of ours. */
export interface PeerFacts {
  /** The peer's package name. */
  name: string
  /** Our package's range for it. */
  range: string
  /** Our package that needs it. */
  by: string
  /** The app's package.json spec for it (a range, a version, a dist-tag...), when it names it. */
  declared?: string
  /** The version in the app's `node_modules`, when installed. */
  installed?: string
}

function upgradeStep(name: string, range: string): string {
  const major = semver.minVersion(range)?.major ?? 0
  const named = UPGRADES[name]
  if (named !== undefined) return named(major)
  const companion = COMPANIONS[name]
  return `upgrade ${name} to ${range} first: \`npm install ${[name, companion].flatMap((pkg) => (pkg === undefined ? [] : [`${pkg}@"${range}"`])).join(" ")}\``
}

/** Whether `version` is a prerelease of a release `range` accepts: a pinned release is then all it takes. */
function isPrereleaseOfRange(version: string, range: string): boolean {
  return semver.prerelease(version, LOOSE) !== null && semver.satisfies(version, range, { ...LOOSE, includePrerelease: true })
}

/**
 * The step the app must take before the migration, or `undefined` when npm will install our
 * package beside what the app has.
 */
export function peerBlocker(facts: PeerFacts): string | undefined {
  const { name, range, by, declared, installed } = facts
  const fits = (version: string): boolean => semver.satisfies(version, range, LOOSE)
  const has = [declared === undefined ? undefined : `package.json asks for ${name}@${declared}`, installed === undefined ? undefined : `${installed} is installed`].filter((part) => part !== undefined).join(", ")
  const explain = (step: string): string => `${step} (${by} needs ${name}@${range}; ${has})`
  const refuse = (version: string): string => (isPrereleaseOfRange(version, range) ? explain(`pin a release of ${name} first: \`npm install ${name}@"${range}"\` (npm counts no prerelease as inside a peer range)`) : explain(upgradeStep(name, range)))
  const installedVersion = installed === undefined ? null : semver.valid(installed, LOOSE)
  const installedRefused = installedVersion !== null && !fits(installedVersion)
  if (declared === undefined) return installedRefused ? refuse(installedVersion) : undefined
  const exact = semver.valid(declared, LOOSE)
  if (exact !== null) return fits(exact) ? undefined : refuse(exact)
  const declaredRange = semver.validRange(declared, LOOSE)
  if (declaredRange !== null) {
    if (!semver.intersects(declaredRange, range, LOOSE)) return refuse(semver.minVersion(declaredRange, LOOSE)?.version ?? "0.0.0")
    // npm keeps an installed version that still fits the app's own range.
    return installedRefused && semver.satisfies(installedVersion, declaredRange, LOOSE) ? refuse(installedVersion) : undefined
  }
  // A dist-tag: `latest` is a release; any other (`canary`, `next`, `beta`) installs a prerelease.
  if (/^[a-z][\w.-]*$/iu.test(declared)) {
    if (declared === "latest") return installedRefused ? refuse(installedVersion) : undefined
    if (installedVersion !== null && fits(installedVersion)) return undefined
    return explain(`pin a release of ${name} first: \`npm install ${name}@"${range}"\` ("${declared}" installs a prerelease, which npm counts as outside every peer range)`)
  }
  // An alias, a path, a git URL: only what is installed tells.
  return installedRefused ? refuse(installedVersion) : undefined
}
