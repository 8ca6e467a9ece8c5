import { testProvider } from "../testing.js"
import fixture from "./fixture.json" with { type: "json" }
import Salesforce from "./index.js"

testProvider(Salesforce, {
  fixture,
  user: {
    id: "https://login.salesforce.com/id/00D5g000004qKzSEAU/0055g00000AbCdEAAV",
    name: "Priscilla Adeyemi",
    email: "priscilla.adeyemi@acme.example.com",
    image: "https://acme.file.force.com/profilephoto/7295g000000AbCd/F",
  },
})
