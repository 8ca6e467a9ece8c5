// The same app's routes mounted a second time, on the edge runtime, where Next.js puts the
// catch-all segment into request.url.
import NextAuth from "@portcullis/nextjs"
import { config } from "./auth"

export const { handlers } = NextAuth({ ...config, basePath: "/api/edge-auth" })
