import { describe, expect, it } from "vitest"
import { migrate } from "../src/index.js"
import { NOW, writeProject } from "./projects.js"

const STEP = /clientAddress/

describe("who is asking (the per-client limits)", () => {
  it("lists a next-auth config without clientAddress, which a deployed app would log ClientAddressUnknown for", () => {
    const dir = writeProject({
      "auth.ts": `import NextAuth from "next-auth"\nimport GitHub from "next-auth/providers/github"\nexport const { handlers, auth } = NextAuth({\n  providers: [GitHub],\n})\n`,
    })
    const steps = migrate({ dir, now: NOW }).manual.filter(({ step }) => STEP.test(step))
    expect(steps.map(({ file, line }) => `${file}:${String(line)}`)).toEqual(["auth.ts:3"])
    expect(steps[0]?.step).toContain('forwardedFor({ proxies: 1 }) from "@portcullis/core/client-address"')
    expect(steps[0]?.step).toContain("ClientAddressUnknown")
  })

  it("lists an @auth/core config handed to Auth(request, config)", () => {
    const dir = writeProject({
      "server.ts": `import { Auth } from "@auth/core"\nimport GitHub from "@auth/core/providers/github"\nconst config = { providers: [GitHub], secret: process.env.AUTH_SECRET }\nexport const handle = (request: Request) => Auth(request, config)\n`,
    })
    expect(migrate({ dir, now: NOW }).manual.filter(({ step }) => STEP.test(step)).map(({ file, line }) => `${file}:${String(line)}`)).toEqual(["server.ts:3"])
  })

  it("lists nothing for a config that sets clientAddress or turns the per-client limits off, nor for Express and SvelteKit, which pass the address", () => {
    const dir = writeProject({
      "auth.ts": `import NextAuth from "next-auth"\nexport const { auth } = NextAuth({ providers: [], clientAddress: (request: Request) => request.headers.get("x-real-ip") })\n`,
      "off.ts": `import { Auth } from "@auth/core"\nexport const handle = (request: Request) => Auth(request, { providers: [], rateLimit: { perClient: false } })\n`,
      "app.ts": `import { ExpressAuth } from "@auth/express"\nexport const auth = ExpressAuth({ providers: [] })\n`,
      "src/auth.ts": `import { SvelteKitAuth } from "@auth/sveltekit"\nexport const { handle } = SvelteKitAuth({ providers: [] })\n`,
    })
    expect(migrate({ dir, now: NOW }).manual.filter(({ step }) => STEP.test(step))).toEqual([])
  })
})
