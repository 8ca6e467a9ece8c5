/** The test app builds as a user's would, minus the type check the package's own typecheck covers. */
const config = {
  typescript: { ignoreBuildErrors: true },
  // Tests run against a production build on loopback; nothing needs a source map.
  productionBrowserSourceMaps: false,
}

export default config
