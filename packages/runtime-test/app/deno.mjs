// The app on Deno: Deno.serve, core reading process.env (Deno's Node compatibility, with --allow-env).
import { createApp } from "./app.mjs"

Deno.serve(
  { hostname: "127.0.0.1", port: 0, onListen: ({ port }) => console.log(JSON.stringify({ port })) },
  createApp(process.env, { envRead: true }),
)
