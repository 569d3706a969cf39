// The partner console's settings (contract-decisions: "Partner console settings"): feature flag,
// keys, webhook, region, rate limit and brands. The control API's schema (openapi/mock-control.yaml)
// checks every value; here are only the rules a schema cannot state: the `{origin}` placeholder, the
// rebuild key differing from the webhook key, one brand per server IP, and the canonical forms kept.
import type { components } from "../../../src/generated/mock-control.js";
import { schemas } from "../../../src/generated/mock-control-validators.js";
import { DomainError, type FieldError, validationFailed } from "../errors.js";
import type { Random } from "../random.js";
import { schemaProblems } from "../validation/check.js";
import { firstGiven, joinPath } from "../validation/schema-errors.js";
import { canonicalIp } from "./ip-address.js";
import { generateKey } from "./secrets.js";
import type { Brand, PartnerSettings } from "./types.js";

/** Settings a request, a seed or a snapshot gives (schema-checked); the ones left out are kept. */
export type PartnerSettingsFields = components["schemas"]["PartnerSettingsFields"];

const DEFAULT_REGION = "eu";
const DEFAULT_RATE_LIMIT_PER_HOUR = 30;
/** What a webhook URL may start with to mean the mock's own origin (snapshots write it too). */
export const ORIGIN_PLACEHOLDER = "{origin}";

/** A partner id a body gives as a JSON number or a digit string (the schema checked which). */
export function partnerIdOf(value: number | string): number {
  return typeof value === "number" ? value : Number(value);
}

/** Each partner's console settings, by id. */
export interface PartnerBook {
  get(id: number): PartnerSettings | undefined;
  /** Copies, by id. */
  all(): PartnerSettings[];
  /**
   * The partners `entries` describe (a seed's or a snapshot's, schema-checked), each over the
   * defaults, without changing this book; problems are VALIDATION_FAILED at paths below `path`.
   */
  read(
    entries: ReadonlyArray<PartnerSettingsFields & { id: number }>,
    path: string,
  ): Map<number, PartnerSettings>;
  /** Replaces every partner (with what `read` gave). */
  replace(partners: ReadonlyMap<number, PartnerSettings>): void;
  /** Creates or changes a partner (VALIDATION_FAILED for a rule the schema cannot state). */
  upsert(id: number, fields: PartnerSettingsFields | undefined): PartnerSettings;
  /** A new rebuild key; the old one stops working at once. NOT_FOUND for an unknown partner. */
  rotateKey(id: number): { apiKey: string };
  /**
   * The brand a customer logging in from hosting-panel server `ip` sees: the partner's brand whose
   * server IPs include it (an IPv4-mapped IPv6 address matches its IPv4 address), or null.
   */
  brandFor(id: number, ip: string): Brand | null;
}

export function createPartnerBook(origin: string, random: Random): PartnerBook {
  let partners = new Map<number, PartnerSettings>();

  const known = (id: number): PartnerSettings => {
    const settings = partners.get(id);
    if (!settings) throw new DomainError("NOT_FOUND", `No partner ${id}`);
    return settings;
  };

  /** A partner the control API creates: feature on, generated keys, the built-in sink, `eu`, 30 per hour. */
  const defaults = (id: number): PartnerSettings => ({
    id,
    featureEnabled: true,
    apiKey: generateKey(random, "rk"),
    webhookUrl: `${origin}/__mock/webhook-sink/${id}`,
    webhookApiKey: generateKey(random, "wk"),
    region: DEFAULT_REGION,
    rateLimitPerHour: DEFAULT_RATE_LIMIT_PER_HOUR,
    brands: [],
  });

  const apply = (current: PartnerSettings, fields: PartnerSettingsFields, path: string): PartnerSettings => {
    const next: PartnerSettings = { ...current };
    const { webhookUrl, brands, ...plain } = fields;
    Object.assign(next, plain);
    const problems: FieldError[] = [];
    if (webhookUrl?.startsWith(ORIGIN_PLACEHOLDER)) {
      next.webhookUrl = origin + webhookUrl.slice(ORIGIN_PLACEHOLDER.length);
      // The schema checked what was written; what it stands for must be an HttpUrl too (its length
      // depends on the origin), or every answer that shows it would break the contract.
      for (const problem of schemaProblems(schemas.HttpUrl, next.webhookUrl, joinPath(path, "webhookUrl"))) {
        problems.push({ ...problem, message: `${problem.message} once {origin} is ${origin}` });
      }
    } else if (webhookUrl !== undefined) {
      next.webhookUrl = webhookUrl;
    }
    if (brands !== undefined) next.brands = canonicalBrands(brands, joinPath(path, "brands"), problems);
    if (problems.length === 0 && next.apiKey === next.webhookApiKey) {
      problems.push({
        type: "invalid_value",
        path: joinPath(path, fields.webhookApiKey !== undefined ? "webhookApiKey" : "apiKey"),
        message:
          "must differ from the other key: the rebuild API key and the webhook API key are not interchangeable",
      });
    }
    if (problems.length > 0) throw validationFailed(problems);
    return next;
  };

  return {
    get: (id) => partners.get(id),
    all: () => [...partners.values()].map((p) => structuredClone(p)).sort((a, b) => a.id - b.id),
    read(entries, path) {
      const read = new Map<number, PartnerSettings>();
      const firstAt = new Map<number, string>();
      const problems: FieldError[] = [];
      entries.forEach(({ id, ...fields }, index) => {
        const at = joinPath(path, index);
        if (!firstGiven(firstAt, id, joinPath(at, "id"), `partner id ${id}`, problems)) return;
        try {
          read.set(id, apply(defaults(id), fields, at));
        } catch (error) {
          if (!(error instanceof DomainError)) throw error;
          problems.push(...(error.details.fieldErrors ?? []));
        }
      });
      if (problems.length > 0) throw validationFailed(problems);
      return read;
    },
    replace(given) {
      partners = new Map([...given].map(([id, settings]) => [id, structuredClone(settings)]));
    },
    upsert(id, fields) {
      const settings = apply(partners.get(id) ?? defaults(id), fields ?? {}, "");
      partners.set(id, settings);
      return structuredClone(settings);
    },
    rotateKey(id) {
      const settings = known(id);
      let apiKey: string;
      do apiKey = generateKey(random, "rk");
      while (apiKey === settings.apiKey || apiKey === settings.webhookApiKey);
      partners.set(id, { ...settings, apiKey });
      return { apiKey };
    },
    brandFor(id, ip) {
      const address = canonicalIp(ip);
      const brand = partners
        .get(id)
        ?.brands.find((b) => address !== undefined && b.serverIps.includes(address));
      return brand ? structuredClone(brand) : null;
    },
  };
}

/** Brands as kept: a theme always, canonical IPs (each selecting one brand), the custom domain in lower case. */
function canonicalBrands(brands: readonly Brand[], path: string, problems: FieldError[]): Brand[] {
  // Where each IP was first given: in the same brand or another, a second mention is refused.
  const firstAt = new Map<string, string>();
  return brands.map((brand, index) => {
    const serverIps = brand.serverIps.map((ip, ipIndex) => {
      const address = canonicalIp(ip) ?? ip;
      const at = joinPath(joinPath(joinPath(path, index), "serverIps"), ipIndex);
      firstGiven(firstAt, address, at, `server IP ${address}`, problems);
      return address;
    });
    const { customDomain, theme, ...rest } = brand;
    const kept: Brand = {
      ...rest,
      theme: { colors: { ...theme?.colors }, gradients: { ...theme?.gradients } },
      serverIps,
    };
    if (customDomain != null) kept.customDomain = customDomain.toLowerCase().replace(/\.$/, "");
    return kept;
  });
}
