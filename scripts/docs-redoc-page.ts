// The one place where the HTML that `redocly build-docs` writes is changed. A reference page must
// load nothing from the network (it is opened offline, from file://, behind firewalls) and must show
// the "Assumed" badge in its one style. Redocly CLI 2.77 (Redoc 3.0.1) has no option for the first
// two items below, so they are rewritten here; decisions/027 lists every network reference found
// in the built pages and what happens to each.
import { ASSUMED_BADGE_CSS } from "./docs-badge.js";

// The footer's "API docs by Redocly" logo is an <img> from cdn.redoc.ly, always rendered. It becomes
// the same words drawn by an inline SVG (the full logo; the mini one shows in a collapsed sidebar).
function inlineLogo(text: string, width: number): string {
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="16" viewBox="0 0 ${width} 16">` +
    `<text x="0" y="12" font-family="system-ui,sans-serif" font-size="12" font-weight="600" ` +
    `fill="#0044d4">${text}</text></svg>`;
  return `data:image/svg+xml,${encodeURIComponent(svg)}`;
}

interface Rewrite {
  why: string;
  from: string;
  to: string;
}

const REWRITES: readonly Rewrite[] = [
  {
    why: "footer logo (img, cdn.redoc.ly)",
    from: "https://cdn.redoc.ly/redoc/logo-mini-full.svg",
    to: inlineLogo("Redocly", 52),
  },
  {
    why: "footer logo, collapsed sidebar (img, cdn.redoc.ly)",
    from: "https://cdn.redoc.ly/redoc/logo-mini.svg",
    to: inlineLogo("R", 10),
  },
  // Redoc's icon component draws icons named in Markdoc tags or the theme as CSS masks from these
  // CDN folders. The contracts name no icon; should one appear, it stays blank instead of loading.
  {
    why: "icon pack (CSS mask, cdn.redocly.com)",
    from: "https://cdn.redocly.com/icons/fa/7.0.0",
    to: "data:,",
  },
  {
    why: "icon pack (CSS mask, cdn.redocly.com)",
    from: "https://cdn.redocly.com/icons/code/5.24.0",
    to: "data:,",
  },
];

// Redoc's telemetry (OpenTelemetry traces POSTed to otel.cloud.redocly.com) follows Redocly CLI's
// own telemetry setting: `telemetry: off` in redocly.yaml. (The documented `openapi.disableTelemetry`
// option is overwritten by that setting in this CLI version.) The build fails if it is on.
const TELEMETRY_OFF = /const __redoc_options = \{[^\n]*"disableTelemetry":true[^\n]*\};/;

/** The page as written by Redocly, made offline and given the badge stylesheet. */
export function finishRedocPage(html: string, page: string): string {
  if (!TELEMETRY_OFF.test(html)) {
    throw new Error(`docs: ${page} would send telemetry to Redocly; set \`telemetry: off\` in redocly.yaml`);
  }
  let out = html;
  for (const { why, from, to } of REWRITES) {
    // Each reference is expected where it was found; a Redoc upgrade that moves one must be looked at.
    if (!out.includes(from)) throw new Error(`docs: ${page} no longer contains the ${why} at ${from}`);
    out = out.replaceAll(from, to);
  }
  const head = out.indexOf("</head>");
  if (head < 0) throw new Error(`docs: ${page} has no </head>`);
  return `${out.slice(0, head)}<style>${ASSUMED_BADGE_CSS}</style>\n${out.slice(head)}`;
}
