/* global process, performance, Request */
// A fresh process: import the implementation, answer one GET /session, print the milliseconds
// that took (from before the import, so Node's own start-up is left out for both).
const started = performance.now()
const which = process.argv[2]
const { Auth } = await import(which === "ours" ? "@portcullis/core" : "authjs-core")
const config = {
  secret: "bench-secret-0123456789abcdef0123456789abcdef",
  trustHost: true,
  basePath: "/api/auth",
  logger: { error: () => undefined, warn: () => undefined, debug: () => undefined },
  providers: [{ id: "bench", name: "Bench", type: "oidc", issuer: "https://idp.example", clientId: "c", clientSecret: "s" }],
}
const response = await Auth(new Request("http://localhost:3000/api/auth/session"), config)
await response.text()
if (response.status !== 200) throw new Error(`${which}: /session answered ${response.status}`)
process.stdout.write(String(performance.now() - started))
