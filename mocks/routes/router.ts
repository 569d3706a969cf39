import type { RouteDefinition } from "./types.js";

interface CompiledRoute<World> {
  definition: RouteDefinition<World>;
  segments: readonly string[];
  /** Index → parameter name for `{name}` segments. */
  params: ReadonlyMap<number, string>;
}

export type RouteMatch<World> =
  | { kind: "found"; route: RouteDefinition<World>; params: Record<string, string> }
  | { kind: "method-not-allowed"; allow: readonly string[] }
  | { kind: "not-found" };

export interface Router<World> {
  /** The route for `method` at `path` (already stripped of the API's base path). HEAD runs GET's. */
  match(method: string, path: string): RouteMatch<World>;
  /** The methods served at `path`, sorted, HEAD included wherever GET is; undefined for an unknown path. */
  methods(path: string): readonly string[] | undefined;
}

/**
 * Matches a path (already stripped of the API's base path) against one API's route table.
 * Static paths are found with one map lookup, which keeps the hot GET path cheap. Every GET route
 * also answers HEAD (RFC 9110 §9.3.2): same status and headers, and the adapters send no body.
 */
export function compileRoutes<World>(definitions: readonly RouteDefinition<World>[]): Router<World> {
  const staticPaths = new Map<string, Map<string, RouteDefinition<World>>>();
  const dynamic: CompiledRoute<World>[] = [];
  for (const definition of definitions) {
    const segments = definition.path.split("/").slice(1);
    const params = new Map<number, string>();
    segments.forEach((segment, index) => {
      if (segment.startsWith("{") && segment.endsWith("}")) params.set(index, segment.slice(1, -1));
    });
    if (params.size === 0) {
      const byMethod = staticPaths.get(definition.path) ?? new Map<string, RouteDefinition<World>>();
      byMethod.set(definition.method, definition);
      staticPaths.set(definition.path, byMethod);
    } else {
      dynamic.push({ definition, segments, params });
    }
  }

  /** Every route at `path` with its parameters; empty for an unknown path. */
  const candidates = (path: string) => {
    const byMethod = staticPaths.get(path);
    if (byMethod) return [...byMethod.values()].map((route) => ({ route, params: {} }));
    const parts = path.split("/").slice(1);
    const found: Array<{ route: RouteDefinition<World>; params: Record<string, string> }> = [];
    for (const candidate of dynamic) {
      const params = matchSegments(candidate, parts);
      if (params) found.push({ route: candidate.definition, params });
    }
    return found;
  };

  const pick = (method: string, path: string) => {
    const byMethod = staticPaths.get(path);
    if (byMethod) {
      const route = byMethod.get(method) ?? (method === "HEAD" ? byMethod.get("GET") : undefined);
      return route ? { route, params: {} } : undefined;
    }
    const all = candidates(path);
    return (
      all.find(({ route }) => route.method === method) ??
      (method === "HEAD" ? all.find(({ route }) => route.method === "GET") : undefined)
    );
  };

  const methods = (path: string) => {
    const all = candidates(path).map(({ route }) => route.method);
    if (all.length === 0) return undefined;
    if (all.includes("GET")) all.push("HEAD");
    return [...new Set(all)].sort();
  };

  return {
    match(method, path) {
      const found = pick(method, path);
      if (found) return { kind: "found", ...found };
      const allow = methods(path);
      return allow ? { kind: "method-not-allowed", allow } : { kind: "not-found" };
    },
    methods,
  };
}

function matchSegments<World>(route: CompiledRoute<World>, parts: readonly string[]) {
  if (parts.length !== route.segments.length) return undefined;
  const params: Record<string, string> = {};
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i] ?? "";
    const name = route.params.get(i);
    if (name === undefined) {
      if (part !== route.segments[i]) return undefined;
      continue;
    }
    if (part === "") return undefined;
    try {
      params[name] = decodeURIComponent(part);
    } catch {
      // A malformed escape cannot name any resource; the route answers it as an unknown id.
      params[name] = "\u0000";
    }
  }
  return params;
}
