import { testProvider } from "../testing.js"
import fixture from "./fixture.json" with { type: "json" }
import Bitbucket from "./index.js"

testProvider(Bitbucket, {
  fixture,
  user: {
    id: "{8d3c2b1a-6f5e-4d7c-9b8a-1e2f3a4b5c6d}",
    name: "Tomás Ferreira",
    email: "tomas.ferreira@example.org",
    image:
      "https://secure.gravatar.com/avatar/6c8f2a1d9b0e4c7a5f3e2d1c0b9a8f7e?d=https%3A%2F%2Favatar-management--avatars.us-west-2.prod.public.atl-paas.net%2Finitials%2FTF-3.png",
  },
})
