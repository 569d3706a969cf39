#!/usr/bin/env node
// The bin (`npx rebuild-dashboard-kit`, `npm start`): `send-callback …` sends a test callback to a
// receiver; anything else starts the mock server. Each command loads only its own modules, so
// send-callback does not load the mock.

const [command, ...rest] = process.argv.slice(2);

if (command === "send-callback") {
  import("./send-callback.js")
    .then(({ runSendCallback }) => runSendCallback(rest))
    .then((code) => {
      process.exitCode = code;
    });
} else {
  import("./serve.js").then(({ serve }) => serve(process.argv.slice(2)));
}
