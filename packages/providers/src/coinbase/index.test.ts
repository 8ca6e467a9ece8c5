import { testProvider } from "../testing.js"
import fixture from "./fixture.json" with { type: "json" }
import Coinbase from "./index.js"

testProvider(Coinbase, {
  fixture,
  user: {
    id: "9da7a204-544e-5fd1-9a12-61176c5d4cd8",
    name: "Grace Okafor",
    email: "grace.okafor@example.com",
    image:
      "https://images.coinbase.com/avatar?h=vR%2FY8igBoPwuwGren5JMwvDNGpURAY%2F0nRIOgH%2FY2Qh%2BQ6nomR3qusA%2Bh6o2%0Af9rH&s=128",
  },
})
