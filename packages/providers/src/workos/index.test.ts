import { testProvider } from "../testing.js"
import fixture from "./fixture.json" with { type: "json" }
import WorkOS from "./index.js"

testProvider(WorkOS, {
  fixture,
  user: {
    id: "prof_01HZ3W8Q4R7N2K5T9V6X1Y0ABC",
    name: "Oliver Bennett",
    email: "oliver.bennett@acme-corp.example",
    image: null,
  },
})
