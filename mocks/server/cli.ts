#!/usr/bin/env node
// The bin (`npx rebuild-dashboard-kit`, `npm start`): `send-callback …` sends a test callback to a
// receiver; `verify …` checks the contract's assumptions against a running service; `proxy …` starts
// the recording proxy (mocks/proxy/); anything else starts the mock server. Each command loads only
// its own modules, so
// send-callback does not load the mock.

const [command, ...rest] = process.argv.slice(2);

if (command === "send-callback") {
  import("./send-callback.js")
    .then(({ runSendCallback }) => runSendCallback(rest))
    .then((code) => {
      process.exitCode = code;
    });
} else if (command === "proxy") {
  import("../proxy/proxy-command.js").then(({ runProxy }) => runProxy(rest));
} else if (command === "verify") {
  // Ctrl+C or SIGTERM interrupts the probes; verify then removes what it created and exits. A
  // second signal ends the process at once (the handler is gone).
  const interrupt = new AbortController();
  for (const signal of ["SIGINT", "SIGTERM"] as const) process.once(signal, () => interrupt.abort(signal));
  import("./verify.js")
    .then(({ runVerify }) =>
      runVerify(rest, process.env, {
        output: {
          out: (line) => process.stdout.write(`${line}\n`),
          err: (line) => process.stderr.write(`${line}\n`),
        },
        signal: interrupt.signal,
      }),
    )
    .then(
      (code) => process.exit(code),
      (error: unknown) => {
        // A bug, not a usage error: one line, no stack trace (secrets never reach an error message).
        process.stderr.write(
          `verify: unexpected error: ${error instanceof Error ? error.message : String(error)}\n`,
        );
        process.exit(2);
      },
    );
} else {
  import("./serve.js").then(({ serve }) => serve(process.argv.slice(2)));
}
