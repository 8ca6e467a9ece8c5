// The app on Node.js: node:http through the test kit's server, core reading process.env.
import { announceHandler } from "@portcullis/test-kit/app-process"
import { createApp } from "./app.mjs"

await announceHandler(createApp(process.env, { envRead: true }))
