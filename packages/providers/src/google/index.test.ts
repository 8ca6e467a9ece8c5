import { testProvider } from "../testing.js"
import fixture from "./fixture.json" with { type: "json" }
import Google from "./index.js"

testProvider(Google, {
  fixture,
  user: {
    id: "108937652217403968215",
    name: "Priya Nair",
    email: "priya.nair@northwind.example",
    image: "https://lh3.googleusercontent.com/a/ACg8ocJ4vT0mQ2zR8sPbN1xW5yK7eLhU3fGdC9aV6tY0iO2p=s96-c",
  },
})
