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

/**
 * Matches a path (already stripped of the API's base path) against one API's route table.
 * Static paths are found with one map lookup, which keeps the hot GET path cheap.
 */
export function compileRoutes<World>(definitions: readonly RouteDefinition<World>[]) {
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

  return function match(method: string, path: string): RouteMatch<World> {
    const byMethod = staticPaths.get(path);
    if (byMethod) {
      const route = byMethod.get(method);
      return route ? { kind: "found", route, params: {} } : methodNotAllowed([...byMethod.keys()]);
    }
    const parts = path.split("/").slice(1);
    const allow: string[] = [];
    for (const candidate of dynamic) {
      const params = matchSegments(candidate, parts);
      if (!params) continue;
      if (candidate.definition.method === method)
        return { kind: "found", route: candidate.definition, params };
      allow.push(candidate.definition.method);
    }
    return allow.length > 0 ? methodNotAllowed(allow) : { kind: "not-found" };
  };
}

function methodNotAllowed(methods: readonly string[]): {
  kind: "method-not-allowed";
  allow: readonly string[];
} {
  return { kind: "method-not-allowed", allow: [...new Set(methods)].sort() };
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
