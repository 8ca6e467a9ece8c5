import { testProvider } from "../testing.js"
import fixture from "./fixture.json" with { type: "json" }
import Atlassian from "./index.js"

testProvider(Atlassian, {
  fixture,
  user: {
    id: "5b10ac8d82e05b22cc7d4ef5",
    name: "Priya Raman",
    email: "priya.raman@example.com",
    image:
      "https://avatar-management--avatars.us-west-2.prod.public.atl-paas.net/5b10ac8d82e05b22cc7d4ef5/2b7e9c1a-4f3d-4a8e-9b61-0c5d2e7f8a93/128",
  },
})
