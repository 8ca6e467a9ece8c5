import { testProvider } from "../testing.js"
import fixture from "./fixture.json" with { type: "json" }
import Wikimedia from "./index.js"

testProvider(Wikimedia, {
  fixture,
  user: { id: "61782930", name: "Ferngully Archivist", email: "tamsin.hale@example.org", image: null },
})
