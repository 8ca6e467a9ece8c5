import { testProvider } from "../testing.js"
import fixture from "./fixture.json" with { type: "json" }
import BankIDNorway from "./index.js"

testProvider(BankIDNorway, {
  fixture,
  user: {
    id: "7f3a1c9e-2b4d-4e6f-8a0b-c1d2e3f4a5b6",
    name: "Ola Nordmann",
    email: null,
    image: null,
  },
})
