// The components, compiled by the app's Astro: `import { SignIn, SignOut, Auth } from "@portcullis/astro/components"`.
export { default as Auth } from "./Auth.astro"
export { default as SignIn } from "./SignIn.astro"
export { default as SignOut } from "./SignOut.astro"
