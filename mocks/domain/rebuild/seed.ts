import { DomainError } from "../errors.js";
import type { Random } from "../random.js";
import { isJsonObject } from "../validation/json-input.js";
import { applyPartnerPatch, defaultPartner, parsePartnerId } from "./partner-settings.js";
import type { PartnerSettings } from "./types.js";

/** A brand as a seed (or a control request) writes it. */
interface BrandSeed {
  /** 1 to 100 characters. */
  name: string;
  /** Colours are CSS hex colours (`#0b5fff`); both maps default to empty. */
  theme?: { colors?: Record<string, string>; gradients?: Record<string, string> };
  /** Absolute http(s) URLs. */
  loginUrl: string;
  upgradeUrl: string;
  domainPurchaseUrl: string;
  /** Hosting-panel server IPs (IPv4 dotted quad or IPv6) whose customers get this brand; each in one brand only. */
  serverIps: string[];
  customDomain?: string | null;
}

/**
 * A partner as a seed writes it. Omitted fields default as for a partner created through the
 * control API: feature enabled, generated keys, the built-in sink as webhook URL, region `eu`,
 * 30 requests per hour, no brands.
 */
interface PartnerSeed {
  /** Positive integer; the `X-Partner-Id`. */
  id: number;
  featureEnabled?: boolean;
  /** The rebuild API key, used as given. */
  apiKey?: string;
  /** `{origin}` stands for the mock's own origin; null means no webhook configured. */
  webhookUrl?: string | null;
  /** Must differ from `apiKey`; null means no webhook key configured. */
  webhookApiKey?: string | null;
  region?: string;
  /** At least 1. */
  rateLimitPerHour?: number;
  brands?: BrandSeed[];
}

/** The rebuild side of a mock seed: plain JSON, checked when loaded. */
export interface RebuildSeed {
  partners: PartnerSeed[];
}

/**
 * Partner 1001 can use everything; 1002 has the feature disabled (403); 1003 has no webhooks (422).
 * The keys are fixed so examples and tests can use them.
 */
export const defaultRebuildSeed: RebuildSeed = {
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
};

/** The seed's partners by id; throws an Error naming the first invalid entry. */
export function loadSeedPartners(
  seed: RebuildSeed,
  random: Random,
  origin: string,
): Map<number, PartnerSettings> {
  // Seeds are often JSON files, so the declared type proves nothing until the values are checked.
  if (!isJsonObject(seed)) throw new Error("Invalid rebuild seed: must be an object with partners");
  const unknownKey = Object.keys(seed).find((key) => key !== "partners");
  if (unknownKey !== undefined) throw new Error(`Invalid rebuild seed: ${unknownKey} is not a seed field`);
  if (!Array.isArray(seed.partners)) throw new Error("Invalid rebuild seed: partners must be an array");
  const partners = new Map<number, PartnerSettings>();
  seed.partners.forEach((entry: unknown, index) => {
    if (!isJsonObject(entry)) throw new Error(`Invalid rebuild seed: partners.${index} must be an object`);
    const { id: rawId, ...settings } = entry;
    const id = parsePartnerId(rawId);
    if (id === undefined || partners.has(id)) {
      throw new Error(`Invalid rebuild seed: partners.${index}.id must be a unique positive integer`);
    }
    try {
      partners.set(id, applyPartnerPatch(defaultPartner(id, random, origin), settings, origin));
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      const detail = (error.details.fieldErrors ?? []).map((e) => `${e.path}: ${e.message}`).join("; ");
      throw new Error(`Invalid rebuild seed: partners.${index} (id ${id}): ${detail}`, { cause: error });
    }
  });
  return partners;
}
