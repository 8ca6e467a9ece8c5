import { defineConfig } from "tsup"

export default defineConfig({
  entry: ["src/index.ts", "src/adapters.ts", "src/public-errors.ts", "src/providers/index.ts", "src/client.ts", "src/sessions.ts", "src/session/jwt.ts", "src/types.ts", "src/oauth/index.ts", "src/email/index.ts", "src/credentials/index.ts", "src/oauth1/index.ts", "src/webauthn/index.ts", "src/webauthn/client.ts"],
  format: ["esm"],
  target: "es2022",
  platform: "neutral",
  dts: true,
  clean: true,
  sourcemap: true,
  splitting: true,
  treeshake: true,
})
