export { default as SignIn } from "./SignIn.svelte"
export { default as SignOut } from "./SignOut.svelte"
