/** Tests that print, some as a passing test must not: test/console-guard.test.ts reads how each ends. */
import { expect, it, vi } from "vitest"

it("prints core's error line", () => {
  console.error("[auth][error] CallbackRouteError: Read more at https://errors.authjs.dev#callbackrouteerror")
})

it("prints core's warning line", () => {
  console.warn("[auth][warn][ClientAddressUnknown] No client address")
})

it("prints an error with its stack", () => {
  console.error(new Error("boom"))
})

it("prints a stack trace in a string", () => {
  console.log(`Something failed\n    at handler (/srv/app/server.js:12:7)\n    at process.processTicksAndRejections (node:internal/process/task_queues:95:5)`)
})

it("records core's error line with a console spy and asserts on it", () => {
  const printed: string[] = []
  const spy = vi.spyOn(console, "error").mockImplementation((...args: unknown[]) => {
    printed.push(args.map(String).join(" "))
  })
  console.error("[auth][error] CallbackRouteError")
  spy.mockRestore()
  expect(printed).toEqual(["[auth][error] CallbackRouteError"])
})

it("prints a plain line", () => {
  console.log("Listening on http://127.0.0.1:3000")
  console.warn("Port 4400 is taken, so the Dev IdP listens on http://127.0.0.1:4401 instead")
})
