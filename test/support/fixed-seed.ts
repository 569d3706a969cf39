// Vitest setup file: every property test runs from one fixed seed, so a run is repeatable and a
// failure is too. fast-check's failure message carries the seed and the path of the counterexample
// (`{ seed: 20261128, path: "…" }`); pass both to `fc.assert(…, { seed, path })` to replay it. A test
// that needs its own seed still passes one explicitly (the fuzz suites do).
import fc from "fast-check";

fc.configureGlobal({ ...fc.readConfigureGlobal(), seed: 20261128 });
