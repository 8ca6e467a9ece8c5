import { signIn } from "@/auth"

// next-auth's documented credentials form: the server action passes its FormData on.
export default function Login() {
  return (
    <form
      action={async (formData: FormData) => {
        "use server"
        await signIn("password", formData)
      }}
    >
      <input name="username" aria-label="Username" />
      <input name="password" type="password" aria-label="Password" />
      <input type="hidden" name="redirectTo" value="/" />
      <button type="submit">Sign in with password</button>
    </form>
  )
}
