/**
 * The test app builds as a user's would, minus the type check the package's own typecheck covers,
 * twice: as before, and with the two options create-next-app@16 writes (CACHE_COMPONENTS=1).
 * Each build has its own output folder so both can be served at once. The edge runtime cannot be
 * combined with Cache Components, and `"use cache"` needs them: `route.edge.ts` files are routes
 * only in the first build, `page.cache-components.tsx` files only in the second.
 */
const cacheComponents = process.env.CACHE_COMPONENTS === "1"

const config = {
  ...(cacheComponents ? { cacheComponents: true, partialPrefetching: true } : {}),
  distDir: cacheComponents ? ".next-cache-components" : ".next",
  pageExtensions: ["tsx", "ts", cacheComponents ? "cache-components.tsx" : "edge.ts"],
  typescript: { ignoreBuildErrors: true },
  // Tests run against a production build on loopback; nothing needs a source map.
  productionBrowserSourceMaps: false,
}

export default config
