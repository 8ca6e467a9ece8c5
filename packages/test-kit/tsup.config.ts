import { defineConfig } from "tsup"

export default defineConfig({
  entry: ["src/browser.ts", "src/system.ts", "src/chromium.ts", "src/serve.ts", "src/workspace.ts", "src/fixtures.ts", "src/redis.ts", "src/app-process.ts", "src/mail-limit.ts", "src/console-guard.ts", "src/packed-app.ts", "src/idp-sign-in.ts", "src/totp.ts"],
  format: ["esm"],
  target: "es2022",
  platform: "node",
  dts: true,
  clean: true,
  sourcemap: true,
})
