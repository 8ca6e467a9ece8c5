// The app on Bun: Bun.serve, core reading process.env.
import { createApp } from "./app.mjs"

const server = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: createApp(process.env, { envRead: true }) })
console.log(JSON.stringify({ port: server.port }))
