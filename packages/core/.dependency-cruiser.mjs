// @ts-check
// Core's import rules (issue 25, "types flow one way"), checked by `pnpm lint` through
// dependency-cruiser. Type-only imports count: a circle closed by `import type` still ties the
// modules together for every reader, so `tsPreCompilationDeps` is on and a cycle made only of
// types is an error like any other.
//
// `pnpm run deps:graph` prints the cycles and writes the import graph as DOT files.
// The tree has no violation left: lint fails on any, with no baseline of known ones.

/** The sign-in flow folders: siblings, each behind the one SignInFlow interface. */
const FLOWS = ["oauth", "oauth1", "email", "credentials", "webauthn", "password"]

/**
 * The only imports one flow folder may make from another. Each entry names the importing flow,
 * a path pattern (relative to packages/core) it may import, and why that code cannot live below
 * the flows instead. Keep it short: a shared piece usually belongs in a module both flows import.
 *
 * @type {{ flow: string, to: string, why: string }[]}
 */
const ALLOWED_FLOW_TO_FLOW = [
  {
    flow: "webauthn",
    to: "^src/email/",
    why:
      "a passkey sign-up with an address is confirmed by the email flow's own sign-in link: the same address rules, " +
      "verification token, link and confirmation page, so a passkey can never verify an address the email flow would not",
  },
  {
    flow: "password",
    to: "^src/email/address\\.ts$",
    why: "a password account's address is read by the email flow's own rules (one plain address, folded alike), so both flows key one person's account by one address",
  },
]

for (const entry of ALLOWED_FLOW_TO_FLOW) {
  if (!FLOWS.includes(entry.flow) || entry.why.trim() === "") {
    throw new Error(`.dependency-cruiser.mjs: allowed flow import ${JSON.stringify(entry)} needs a known flow and a reason`)
  }
}

const flowFolders = `^src/(${FLOWS.join("|")})/`

/**
 * The rooms below the routes, in layers, lowest first (issue 34). A room imports only rooms of
 * the layers below its own and the root's entry points and types-only modules, plus the few
 * imports listed under `also`, each with the reason; rooms of one layer import neither the other.
 * The flows, `session/`, `pages/`, `providers/`, the features (`factors/`, `reauth/`: their
 * routes and pages sit beside the flows, on `sign-in/` and `pages/`) and the routes above them are
 * not layered here: the flow rules above and the route rule below bound them, the `reauth/` rules
 * below that room, and `test/bundle.test.ts` that a feature loads only by `import()`.
 *
 * @type {{ rooms: string[], also?: { room: string, to: string[], why: string }[] }[]}
 */
const LAYERS = [
  { rooms: ["errors", "crypto"] },
  {
    rooms: ["http"],
    also: [
      { room: "http", to: ["pages"], why: "a failed request is answered with the default error page, fetched when one is shown" },
      { room: "http", to: ["audit"], why: "a failed request is the failure of the operation under way, sent to the audit trail where it is answered (the one place that maps codes to reasons)" },
    ],
  },
  { rooms: ["limits"] },
  { rooms: ["audit"] },
  { rooms: ["outbound"] },
  {
    rooms: ["config"],
    also: [{ room: "config", to: FLOWS, why: "a provider written by hand finds its built-in flow by `type` (BUILT_IN), fetched on first use" }],
  },
  {
    rooms: ["sign-in"],
    also: [
      { room: "sign-in", to: ["session"], why: "every sign-in ends by starting the session" },
      { room: "sign-in", to: ["factors"], why: "the second-factor gate plugs in once, in the one sign-in ending, fetched only when `mfa` is set" },
    ],
  },
]

for (const layer of LAYERS) {
  for (const entry of layer.also ?? []) {
    if (!layer.rooms.includes(entry.room) || entry.why.trim() === "") {
      throw new Error(`.dependency-cruiser.mjs: layer exception ${JSON.stringify(entry)} needs a room of its layer and a reason`)
    }
  }
}

/** One rule per room of LAYERS: what it imports from another folder must lie below it. */
const layerRules = LAYERS.flatMap((layer, index) => {
  const below = LAYERS.slice(0, index).flatMap((lower) => lower.rooms)
  return layer.rooms.map((room) => {
    const also = (layer.also ?? []).filter((entry) => entry.room === room).flatMap((entry) => entry.to)
    return {
      name: "room-imports-above-it",
      severity: /** @type {const} */ ("error"),
      comment:
        `src/${room}/ imports a folder that is not below it (${below.length === 0 ? "it is a leaf room" : `it may use ${below.join(", ")}`}` +
        `${also.length === 0 ? "" : `, and ${also.join(", ")}`}). Move the shared piece down, or declare the import under \`also\` in LAYERS ` +
        "in .dependency-cruiser.mjs with the reason.",
      from: { path: `^src/${room}/` },
      to: { path: "^src/[^/]+/", pathNot: `^src/(${[room, ...below, ...also].join("|")})/` },
    }
  })
})

/**
 * The stages of `config/`'s one pipeline from `AuthConfig` to `InternalConfig` (issue 34), in the
 * order `resolveConfig` runs them, each with the files it owns. A file imports only the files
 * listed before it: a stage uses the stages before it and never reaches forward, so following
 * the configuration through the room never comes back to a stage it has left.
 *
 * @type {{ stage: string, files: string[] }[]}
 */
const CONFIG_STAGES = [
  { stage: "read", files: ["env", "flow-key", "read"] },
  { stage: "normalise", files: ["flows", "normalise-rare", "mfa", "normalise"] },
  { stage: "check", files: ["check"] },
  { stage: "resolve", files: ["config"] },
]

/** One rule per file of CONFIG_STAGES: what it imports from `config/` is listed before it. */
const configStageRules = CONFIG_STAGES.flatMap((entry) => entry.files.map((file) => ({ ...entry, file }))).map(({ stage, file }, index, all) => {
  const earlier = all.slice(0, index).map((other) => other.file)
  return {
    name: "config-stage-imports-later-stage",
    severity: /** @type {const} */ ("error"),
    comment:
      `src/config/${file}.ts (the ${stage} stage) imports a config/ file that is not before it in the pipeline ` +
      `(${earlier.length === 0 ? "it is the first" : `it may use ${earlier.join(", ")}`}). A stage uses only earlier stages: ` +
      "move the shared piece to an earlier stage, or the work to a later one (CONFIG_STAGES in .dependency-cruiser.mjs).",
    from: { path: `^src/config/${file}\\.ts$` },
    to: earlier.length === 0 ? { path: "^src/config/" } : { path: "^src/config/", pathNot: `^src/config/(${earlier.join("|")})\\.ts$` },
  }
})

/** @type {import("dependency-cruiser").IConfiguration} */
export default {
  forbidden: [
    {
      name: "no-circular",
      severity: "error",
      comment:
        "A module of core's src reaches itself again through its imports (type-only imports included). " +
        "Move the shared piece down (types to the types-only model, helpers below both users) so imports flow one way.",
      from: { path: "^src/" },
      to: { path: "^src/", circular: true },
    },
    {
      name: "action-imports-flow",
      severity: "error",
      comment:
        "An action imports a flow folder. Actions reach a flow only through the provider that carries it " +
        "(its SignInFlow), so an app bundles only the flows it configures.",
      from: { path: "^src/actions/" },
      to: { path: flowFolders },
    },
    ...FLOWS.map((flow) => {
      const allowed = ALLOWED_FLOW_TO_FLOW.filter((entry) => entry.flow === flow).map((entry) => entry.to)
      return {
        name: "flow-imports-other-flow",
        severity: /** @type {const} */ ("error"),
        comment:
          `The ${flow} flow imports another flow folder. Flows are siblings: move what both need below them, ` +
          "or declare the import in ALLOWED_FLOW_TO_FLOW in .dependency-cruiser.mjs with the reason.",
        from: { path: `^src/${flow}/` },
        to: {
          path: flowFolders,
          pathNot: [`^src/${flow}/`, ...allowed],
        },
      }
    }),
    {
      name: "reauth-imports-flow",
      severity: "error",
      comment:
        "The re-authentication room (src/reauth/) imports a flow folder. It reaches a flow only through the provider " +
        "that carries it (`provider.flow`, with the marker `context.reauth` set), as the actions do.",
      from: { path: "^src/reauth/" },
      to: { path: flowFolders },
    },
    {
      name: "reauth-imported-statically",
      severity: "error",
      comment:
        "A module outside src/reauth/ imports the re-authentication room statically. The route table and the flows' " +
        "endings reach it only by `import()`, so an app that never re-authenticates loads none of it.",
      from: { path: "^src/", pathNot: "^src/reauth/" },
      to: { path: "^src/reauth/", dependencyTypesNot: ["dynamic-import"] },
    },
    ...layerRules,
    ...configStageRules,
    {
      name: "route-imported-below-it",
      severity: "error",
      comment:
        "A folder below the routes imports a route handler (`src/actions/`) or a server function (`src/server/`). " +
        "Routes and server functions sit on top: the entry points and the server functions call them, " +
        "a flow or a room below ends a sign-in through `sign-in/` instead.",
      from: { path: "^src/[^/]+/", pathNot: "^src/(actions|server)/" },
      to: { path: "^src/(actions|server)/" },
    },
    {
      name: "src-imports-outside-src",
      severity: "error",
      comment:
        "A module in src imports a local file outside src (tests, scripts, another package's files): " +
        "the published package ships src and dist only. Import dependencies by package name.",
      from: { path: "^src/" },
      to: {
        pathNot: ["^src/", "(^|/)node_modules/"],
        dependencyTypesNot: ["core"],
        // not-to-unresolvable reports those
        couldNotResolve: false,
      },
    },
    {
      name: "workspace-src-by-relative-path",
      severity: "error",
      comment:
        "A relative import reaches into another workspace package's src. Import the package by its name " +
        "(@portcullis/...), as an app would, so its exports map and build are what is tested.",
      from: { pathNot: "^\\.\\./" },
      to: {
        path: "^\\.\\./[^/]+/src/",
        dependencyTypes: ["local"],
        // A package name mapped to its sources by tsconfig.json's `paths` (as vitest.config.ts maps it):
        // the sibling packages depend on core, so core's tests cannot take them as devDependencies.
        dependencyTypesNot: ["aliased-tsconfig-paths"],
      },
    },
    {
      name: "not-to-unresolvable",
      severity: "error",
      comment:
        "An import dependency-cruiser cannot resolve: the other rules cannot see through it, so a cycle " +
        "could hide behind it. Fix the specifier (or the resolver options below).",
      from: { path: "^src/" },
      to: { couldNotResolve: true },
    },
  ],
  options: {
    // Count `import type` and type-only re-exports: they are what closed core's 14-file circle.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    // Look at dependencies and sibling packages, never into them.
    doNotFollow: { path: ["(^|/)node_modules/", "^\\.\\./"] },
    // Test fixtures are files dependency-cruiser's own rule test cruises on purpose.
    exclude: { path: "^test/fixtures/" },
    enhancedResolveOptions: {
      exportsFields: ["exports"],
      conditionNames: ["types", "import", "default"],
      mainFields: ["types", "module", "main"],
    },
    reporterOptions: {
      dot: { collapsePattern: "(^|/)node_modules/(@[^/]+/[^/]+|[^/]+)" },
      archi: { collapsePattern: "^src/[^/]+/|(^|/)node_modules/(@[^/]+/[^/]+|[^/]+)" },
    },
  },
}
