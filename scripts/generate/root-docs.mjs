// openapi-typescript leaves its four root types (`paths`, `webhooks`, `components`, `operations`)
// without a comment of their own; the package exports them (`DashboardPaths`, …, decisions/047) and
// the SDK reference requires every export documented, so each gets one naming its document.
const ROOTS = {
  paths: (doc) =>
    `Every path of openapi/${doc}.yaml and its operations (what openapi-fetch's \`Client\` takes).`,
  webhooks: (doc) =>
    `Every webhook of openapi/${doc}.yaml: the request the service sends, and the answers it expects.`,
  components: (doc) => `Every schema, response, parameter and header of openapi/${doc}.yaml, by name.`,
  operations: (doc) =>
    `Every operation of openapi/${doc}.yaml by operationId: its parameters, request body and responses.`,
};

/** `types` (openapi-typescript's output for openapi/<doc>.yaml) with a comment on each root type. */
export function documentRoots(types, doc) {
  return types.replace(
    /^export (interface|type) (paths|webhooks|components|operations)\b/gm,
    (line, _kind, root) => `/** ${ROOTS[root](doc)} */\n${line}`,
  );
}
