// The service contracts in JSON as well as YAML (decisions/041): tools that read only JSON point at
// `rebuild-dashboard-kit/openapi/<name>.json` inside node_modules. Same content as the YAML, which
// stays the one hand-written source.
import { join } from "node:path";

export function generateDocumentsJson(documents) {
  return documents.map(({ name, document }) => ({
    path: join("openapi", `${name}.json`),
    content: `${JSON.stringify(document, null, 2)}\n`,
  }));
}
