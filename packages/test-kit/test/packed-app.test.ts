import { readdir, readFile, rm } from "node:fs/promises"
import { describe, expect, it } from "vitest"

import { writeAppDir } from "../src/packed-app.js"

describe("writeAppDir", () => {
  it("without a fixture writes an app of only its package.json, naming our packages and the framework's (startPackedApp's app before its files)", async () => {
    const { scratch, dir, port, url } = await writeAppDir({ integration: "@portcullis/hono", framework: { hono: "^4.0.0" } })
    try {
      expect(await readdir(dir)).toEqual(["package.json"])
      expect(JSON.parse(await readFile(`${dir}/package.json`, "utf8"))).toEqual({
        name: "hono-app",
        private: true,
        type: "module",
        dependencies: { "@portcullis/core": "*", "@portcullis/providers": "*", "@portcullis/adapter-memory": "*", "@portcullis/hono": "*", hono: "^4.0.0" },
      })
      expect(url).toBe(`http://localhost:${String(port)}`)
    } finally {
      await rm(scratch, { recursive: true, force: true })
    }
  })
})
