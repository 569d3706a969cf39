// The documents the reference docs are built from, in the order the index lists them. Each entry is
// one Redoc page; a new page (such as the mock's control API, openapi/mock-control.yaml) is one more
// entry here, and the build, the index and the docs test (test/docs/docs.test.ts) pick it up.

export interface DocsDocument {
  /** The page is `<name>.html`; also its section id on the "Confirmed vs assumed" page. */
  name: string;
  /** The OpenAPI document, relative to the repository root. */
  source: string;
  /**
   * `contract`: a description of a provider's service; its unstated elements are marked
   * `x-assumed` and listed on the "Confirmed vs assumed" page.
   * `development tool`: an API of this package's own tooling (nothing in it is assumed about a
   * provider); its page and index entry say it is not part of the service contracts.
   */
  kind: "contract" | "development tool";
}

export const DOCS_DOCUMENTS: readonly DocsDocument[] = [
  { name: "dashboard", source: "openapi/dashboard.yaml", kind: "contract" },
  { name: "rebuild", source: "openapi/rebuild.yaml", kind: "contract" },
  { name: "mock-control", source: "openapi/mock-control.yaml", kind: "development tool" },
];
