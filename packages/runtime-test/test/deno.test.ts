import { runtimeSignIn } from "./sign-in.js"

runtimeSignIn("deno")
