import * as adapters from "@portcullis/core/adapters"
import { expect, it } from "vitest"

// Published Auth.js adapters import isDate from this entry: it must exist in the built file,
// not only in the types.
it("@portcullis/core/adapters ships isDate at runtime", () => {
  expect(typeof adapters.isDate).toBe("function")
  expect(adapters.isDate(new Date(0).toJSON())).toBe(true)
})
