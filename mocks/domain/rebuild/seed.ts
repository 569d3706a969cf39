import type { components } from "../../../src/generated/mock-control.js";
import { deepFreeze } from "../deep-freeze.js";

/**
 * The rebuild side of a mock seed (openapi/mock-control.yaml, `RebuildSeed`): partners, each with
 * any console settings (the others default as for a partner the control API creates). Plain JSON,
 * checked by the world against that schema, then by the partner console's own rules.
 */
export type RebuildSeed = Required<components["schemas"]["RebuildSeed"]>;

/**
 * Partner 1001 can use everything; 1002 has the feature disabled (403); 1003 has no webhooks (422).
 * The keys are fixed so examples and tests can use them.
 */
export const defaultRebuildSeed: RebuildSeed = deepFreeze({
  partners: [
    {
      id: 1001,
      featureEnabled: true,
      apiKey: "mock-rebuild-key-1001",
      webhookUrl: "{origin}/__mock/webhook-sink/1001",
      webhookApiKey: "mock-webhook-key-1001",
      brands: [
        {
          name: "Example Hosting",
          theme: {
            colors: { primary: "#0b5fff", accent: "#ff7a00" },
            gradients: { header: "linear-gradient(90deg, #0b5fff, #00c2ff)" },
          },
          loginUrl: "https://panel.example.com/login",
          upgradeUrl: "https://panel.example.com/upgrade",
          domainPurchaseUrl: "https://panel.example.com/domains",
          serverIps: ["203.0.113.10", "2001:db8::10"],
        },
      ],
    },
    {
      id: 1002,
      featureEnabled: false,
      apiKey: "mock-rebuild-key-1002",
      webhookUrl: "{origin}/__mock/webhook-sink/1002",
      webhookApiKey: "mock-webhook-key-1002",
    },
    {
      id: 1003,
      featureEnabled: true,
      apiKey: "mock-rebuild-key-1003",
      webhookUrl: null,
      webhookApiKey: null,
    },
  ],
});
