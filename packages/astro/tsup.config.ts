import { defineConfig } from "tsup"

export default defineConfig({
  // config.ts is an entry of its own so that the route, the middleware and the server functions
  // share one configuration object: core keeps what it resolved (and the memory limits) per object.
  entry: ["src/index.ts", "src/config.ts", "src/route.ts", "src/middleware.ts", "src/check-origin.ts", "src/server.ts", "src/client.ts"],
  format: ["esm"],
  target: "es2022",
  platform: "node",
  // The app's configuration is a module Vite serves at build time.
  external: ["portcullis:config"],
  dts: true,
  clean: true,
  sourcemap: true,
})
