// express4 is Express 4 installed under another name; its API is typed by @types/express (v5), which covers what the tests use.
declare module "express4" {
  import express from "express"
  export default express
}
