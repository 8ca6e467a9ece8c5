import { runtimeSignIn } from "./sign-in.js"

runtimeSignIn("node-24")
