// The one definition of the "Assumed" badge's look in the reference docs. Every page carries this
// stylesheet (the Redoc pages through docs-redoc-page.ts, the hand-made ones through docs-pages.ts),
// and every badge is marked up to pick it up:
// - in Markdown (descriptions of fields, parameters, responses, headers; the hand-made pages) as
//   `<span class="assumed-badge">Assumed</span>`;
// - on operations (next to the title and in the sidebar) as a Redoc `x-badges` entry whose `color`
//   is the word `assumed`: Redoc gives each badge the class `tag-<color>`, and a value that is not a
//   CSS colour sets no colour of its own, so the stylesheet alone decides the look.

export const ASSUMED_LABEL = "Assumed";

/** An `x-badges` entry for an assumed operation or webhook. */
export const ASSUMED_OPERATION_BADGE = { name: ASSUMED_LABEL, color: "assumed" } as const;

/** The badge in Markdown and HTML. */
export const ASSUMED_BADGE_HTML = `<span class="assumed-badge">${ASSUMED_LABEL}</span>`;

/** Matches every badge on every page: the Markdown span and Redoc's tag. */
export const ASSUMED_BADGE_SELECTOR = ".assumed-badge, .tag-assumed";

// Two classes for Redoc's tag, so the rule outranks the single generated class of its own styles.
// The warning sign is decoration (CSS content), so the badge's text is the same word everywhere.
export const ASSUMED_BADGE_CSS = `
.assumed-badge, .tag-default.tag-assumed {
  display: inline-flex; align-items: center; gap: 0.25em; box-sizing: border-box;
  margin: 0; padding: 0 6px; border: 1px solid #f59e0b; border-radius: 4px;
  background: #fef3c7; color: #92400e;
  font: 600 12px/18px system-ui, sans-serif; white-space: nowrap; vertical-align: baseline;
}
.tag-default.tag-assumed > * { color: inherit; font: inherit; padding: 0; }
.assumed-badge::before, .tag-default.tag-assumed::before { content: "\\26A0"; }
`;
