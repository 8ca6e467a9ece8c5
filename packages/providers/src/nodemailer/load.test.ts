import { Configuration } from "@portcullis/core/errors"
import { describe, expect, it } from "vitest"
import { importNodemailer, type NodemailerModule } from "./load.js"

/** The error Node's ESM loader gives for a package that is not installed. */
function notFound(specifier: string): Error {
  return Object.assign(new Error(`Cannot find package '${specifier}' imported from /app/node_modules/@portcullis/providers/dist/nodemailer/index.js`), { code: "ERR_MODULE_NOT_FOUND" })
}

describe("importNodemailer()", () => {
  it("loads nodemailer when it is installed", async () => {
    const nodemailer = await importNodemailer()
    expect(typeof nodemailer.createTransport).toBe("function")
  })

  it("names `npm install nodemailer` when the optional peer is not installed", async () => {
    const load = importNodemailer(() => Promise.reject(notFound("nodemailer")))
    await expect(load).rejects.toThrow(Configuration)
    await expect(load).rejects.toThrow(/run `npm install nodemailer`/)
  })

  it("says the same to a bundler's require(), which reports MODULE_NOT_FOUND", async () => {
    const missing = Object.assign(new Error("Cannot find module 'nodemailer'"), { code: "MODULE_NOT_FOUND" })
    await expect(importNodemailer(() => Promise.reject(missing))).rejects.toThrow(/npm install nodemailer/)
  })

  it("does not blame nodemailer for a missing module nodemailer itself imports", async () => {
    const inner = notFound("some-dependency-of-nodemailer")
    await expect(importNodemailer(() => Promise.reject(inner))).rejects.toBe(inner)
  })

  it("rethrows any other failure as it is", async () => {
    const broken = new SyntaxError("Unexpected token")
    await expect(importNodemailer(() => Promise.reject<NodemailerModule>(broken))).rejects.toBe(broken)
  })
})
