import type { FieldError } from "../errors.js";
import { codePointLength, isJsonObject, jsonType } from "../validation/json-input.js";
import { httpUrlProblem } from "./http-url.js";
import { canonicalIp } from "./ip-address.js";
import type { Brand, BrandTheme } from "./types.js";

const MAX_BRANDS = 20;
const MAX_NAME_LENGTH = 100;
const MAX_THEME_ENTRIES = 50;
const MAX_GRADIENT_LENGTH = 500;
const MAX_SERVER_IPS = 100;
const THEME_KEY = /^[A-Za-z][A-Za-z0-9_-]{0,63}$/;
const HEX_COLOR = /^#(?:[0-9a-f]{3}|[0-9a-f]{4}|[0-9a-f]{6}|[0-9a-f]{8})$/i;
const DNS_LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;
const BRAND_FIELDS = new Set([
  "name",
  "theme",
  "loginUrl",
  "upgradeUrl",
  "domainPurchaseUrl",
  "serverIps",
  "customDomain",
]);
const URL_FIELDS = ["loginUrl", "upgradeUrl", "domainPurchaseUrl"] as const;

/**
 * Reads the `brands` setting: an array of brands, each with a name, an optional theme (hex colours
 * and gradient texts by name), the login, upgrade and domain purchase URLs, the panel server IPs
 * that select it (each IP in at most one brand, so the match is unambiguous) and an optional custom
 * domain. Pushes field errors and returns undefined when anything is wrong.
 */
export function parseBrands(value: unknown, errors: FieldError[]): Brand[] | undefined {
  const before = errors.length;
  if (!Array.isArray(value)) {
    errors.push({
      type: "invalid_type",
      path: "brands",
      message: `must be an array, got ${jsonType(value)}`,
    });
    return undefined;
  }
  if (value.length > MAX_BRANDS) {
    errors.push({ type: "too_big", path: "brands", message: `must hold at most ${MAX_BRANDS} brands` });
    return undefined;
  }
  const brands = value.map((item, index) => parseBrand(item, `brands.${index}`, errors));
  const owners = new Set<string>();
  brands.forEach((brand, index) => {
    brand?.serverIps.forEach((ip, ipIndex) => {
      if (owners.has(ip)) {
        errors.push({
          type: "duplicate",
          path: `brands.${index}.serverIps.${ipIndex}`,
          message: `${ip} already selects another brand`,
        });
      }
      owners.add(ip);
    });
  });
  return errors.length === before ? brands.filter((brand) => brand !== undefined) : undefined;
}

function parseBrand(value: unknown, path: string, errors: FieldError[]): Brand | undefined {
  if (!isJsonObject(value)) {
    errors.push({ type: "invalid_type", path, message: `must be an object, got ${jsonType(value)}` });
    return undefined;
  }
  const before = errors.length;
  for (const key of Object.keys(value)) {
    if (!BRAND_FIELDS.has(key)) {
      errors.push({ type: "unknown_field", path: `${path}.${key}`, message: "is not a brand setting" });
    }
  }
  const name = requiredString(value.name, `${path}.name`, errors);
  if (name !== undefined && (name.trim() === "" || codePointLength(name) > MAX_NAME_LENGTH)) {
    errors.push({
      type: name.trim() === "" ? "too_small" : "too_big",
      path: `${path}.name`,
      message: `must be 1 to ${MAX_NAME_LENGTH} characters`,
    });
  }
  const urls = URL_FIELDS.map((field) => {
    const url = requiredString(value[field], `${path}.${field}`, errors);
    const problem = url === undefined ? undefined : httpUrlProblem(url);
    if (problem !== undefined)
      errors.push({ type: "invalid_format", path: `${path}.${field}`, message: problem });
    return url ?? "";
  });
  const theme =
    value.theme === undefined
      ? { colors: {}, gradients: {} }
      : parseTheme(value.theme, `${path}.theme`, errors);
  const serverIps = parseServerIps(value.serverIps, `${path}.serverIps`, errors);
  const customDomain = parseCustomDomain(value.customDomain, `${path}.customDomain`, errors);
  if (errors.length > before || name === undefined || theme === undefined || serverIps === undefined) {
    return undefined;
  }
  const [loginUrl = "", upgradeUrl = "", domainPurchaseUrl = ""] = urls;
  const brand: Brand = { name, theme, loginUrl, upgradeUrl, domainPurchaseUrl, serverIps };
  if (customDomain !== undefined) brand.customDomain = customDomain;
  return brand;
}

function requiredString(value: unknown, path: string, errors: FieldError[]): string | undefined {
  if (value === undefined) {
    errors.push({ type: "required", path, message: "is required" });
  } else if (typeof value !== "string") {
    errors.push({ type: "invalid_type", path, message: `must be a string, got ${jsonType(value)}` });
  } else {
    return value;
  }
  return undefined;
}

function parseTheme(value: unknown, path: string, errors: FieldError[]): BrandTheme | undefined {
  if (!isJsonObject(value)) {
    errors.push({ type: "invalid_type", path, message: `must be an object, got ${jsonType(value)}` });
    return undefined;
  }
  const before = errors.length;
  for (const key of Object.keys(value)) {
    if (key !== "colors" && key !== "gradients") {
      errors.push({ type: "unknown_field", path: `${path}.${key}`, message: "is not a theme setting" });
    }
  }
  const colors = parseNamedTexts(value.colors, `${path}.colors`, errors, (text) =>
    HEX_COLOR.test(text) ? undefined : "must be a hex colour such as #1a2b3c",
  );
  const gradients = parseNamedTexts(value.gradients, `${path}.gradients`, errors, (text) =>
    text.trim() !== "" && codePointLength(text) <= MAX_GRADIENT_LENGTH
      ? undefined
      : `must be 1 to ${MAX_GRADIENT_LENGTH} characters`,
  );
  return errors.length === before ? { colors, gradients } : undefined;
}

function parseNamedTexts(
  value: unknown,
  path: string,
  errors: FieldError[],
  problem: (text: string) => string | undefined,
): Record<string, string> {
  const out: Record<string, string> = {};
  if (value === undefined) return out;
  if (!isJsonObject(value)) {
    errors.push({ type: "invalid_type", path, message: `must be an object, got ${jsonType(value)}` });
    return out;
  }
  const entries = Object.entries(value);
  if (entries.length > MAX_THEME_ENTRIES) {
    errors.push({ type: "too_big", path, message: `must hold at most ${MAX_THEME_ENTRIES} entries` });
    return out;
  }
  for (const [key, text] of entries) {
    const at = `${path}.${key}`;
    if (!THEME_KEY.test(key)) {
      errors.push({
        type: "invalid_format",
        path: at,
        message: "name must be a letter then letters, digits, _ or -",
      });
    } else if (typeof text !== "string") {
      errors.push({ type: "invalid_type", path: at, message: `must be a string, got ${jsonType(text)}` });
    } else {
      const why = problem(text);
      if (why === undefined) out[key] = text;
      else errors.push({ type: "invalid_format", path: at, message: why });
    }
  }
  return out;
}

function parseServerIps(value: unknown, path: string, errors: FieldError[]): string[] | undefined {
  if (value === undefined) {
    errors.push({ type: "required", path, message: "is required" });
    return undefined;
  }
  if (!Array.isArray(value)) {
    errors.push({ type: "invalid_type", path, message: `must be an array, got ${jsonType(value)}` });
    return undefined;
  }
  if (value.length > MAX_SERVER_IPS) {
    errors.push({ type: "too_big", path, message: `must hold at most ${MAX_SERVER_IPS} addresses` });
    return undefined;
  }
  const before = errors.length;
  const seen = new Set<string>();
  const ips = value.map((item, index) => {
    const ip = typeof item === "string" ? canonicalIp(item) : undefined;
    if (ip === undefined) {
      errors.push({
        type: typeof item === "string" ? "invalid_format" : "invalid_type",
        path: `${path}.${index}`,
        message: "must be an IPv4 (dotted quad) or IPv6 address",
      });
    } else if (seen.has(ip)) {
      errors.push({ type: "duplicate", path: `${path}.${index}`, message: `${ip} is listed twice` });
    } else {
      seen.add(ip);
    }
    return ip ?? "";
  });
  return errors.length === before ? ips : undefined;
}

function parseCustomDomain(value: unknown, path: string, errors: FieldError[]): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "string") {
    errors.push({ type: "invalid_type", path, message: `must be a string or null, got ${jsonType(value)}` });
    return undefined;
  }
  const domain = value.toLowerCase().replace(/\.$/, "");
  const labels = domain.split(".");
  if (domain.length > 253 || labels.length < 2 || !labels.every((label) => DNS_LABEL.test(label))) {
    errors.push({
      type: "invalid_format",
      path,
      message: "must be a domain name such as builder.example.com",
    });
    return undefined;
  }
  return domain;
}
