#!/usr/bin/env node
// The bin (`npx rebuild-dashboard-kit`, `npm start`): `send-callback …` sends a test callback to a
// receiver; `proxy …` starts the recording proxy (mocks/proxy/); anything else starts the mock
// server. Each command loads only its own modules, so
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
} else {
  import("./serve.js").then(({ serve }) => serve(process.argv.slice(2)));
}
