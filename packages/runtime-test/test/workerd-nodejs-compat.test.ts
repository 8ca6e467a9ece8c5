import { runtimeSignIn } from "./sign-in.js"

runtimeSignIn("workerd-nodejs-compat")
