import { describe, expect, it } from "vitest"
import { migrate } from "../src/index.js"
import { NOW, writeProject } from "./projects.js"

describe("plain-http issuers", () => {
  it("lists a provider whose issuer is plain http, which Auth.js fetched and Portcullis refuses", () => {
    const dir = writeProject({
      "auth.ts": `import NextAuth from "next-auth"\nimport Keycloak from "next-auth/providers/keycloak"\nexport const { auth } = NextAuth({\n  providers: [\n    Keycloak({ issuer: "http://localhost:8080/realms/app" }),\n    { id: "sso", type: "oidc", issuer: "https://sso.example.com" },\n    { id: "dev", type: "oidc", issuer: "http://127.0.0.1:9000", allowInsecureLoopbackRequests: true },\n  ],\n})\n`,
    })
    const report = migrate({ dir, now: NOW })
    // The clientAddress step is another concern (client-address.test.ts).
    expect(report.manual.filter(({ step }) => !step.includes("clientAddress")).map(({ file, line, step }) => `${file}:${String(line)} ${step}`)).toEqual([
      "auth.ts:5 the issuer http://localhost:8080/realms/app is plain http, which Auth.js fetched and Portcullis refuses: use its https URL, or for an IdP on a loopback address in development add allowInsecureLoopbackRequests: true to this provider",
    ])
  })
})
