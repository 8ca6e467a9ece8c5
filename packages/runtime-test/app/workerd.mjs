// The app as a worker. Without nodejs_compat (no process.env, no node:crypto) the bindings are the
// environment and the config names what core would otherwise read from process.env; with it
// (CORE_READS_ENV), core reads them from the process.env that workerd fills from the bindings.
// The clock is Cloudflare's as deployed (./io-clock.mjs), installed before the app loads.
import { tick } from "./io-clock.mjs"
import { createApp } from "./app.mjs"

let app

export default {
  fetch(request, env) {
    tick()
    app ??= createApp(env, { envRead: env.CORE_READS_ENV === "true" })
    return app(request)
  },
}
