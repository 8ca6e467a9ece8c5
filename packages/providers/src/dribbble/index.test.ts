import { testProvider } from "../testing.js"
import fixture from "./fixture.json" with { type: "json" }
import Dribbble from "./index.js"

const base = {
  fixture,
  user: {
    id: "1482036",
    name: "Noor Haddad",
    email: null,
    image: "https://cdn.dribbble.com/users/1482036/avatars/normal/nh.png?1588231100",
  },
}

testProvider(Dribbble, base)

testProvider(Dribbble, {
  ...base,
  title: "scope",
  config: { scope: "public upload" },
  authorizationParams: { scope: "public upload" },
})
