// Loaded (node --import) into every unit test file's process by `npm run test:unit`: a unit test
// runs in its own process only, so starting a child process (a node, anvil, npm, a shell) fails
// the test that tried, with a message that says where such a test belongs. Worker threads are
// not processes and stay allowed.
import childProcess from 'node:child_process';
import { syncBuiltinESMExports } from 'node:module';

const refuse = (name) =>
  function refused() {
    throw new Error(
      `child_process.${name}() in a unit test: a test that starts processes is an end-to-end test ` +
        '(put it in test/e2e/, or name it *.process.test.ts); run it with npm run test:e2e',
    );
  };
// node --test passes --import on to the processes it runs the files in, marked NODE_TEST_CONTEXT;
// the runner itself must still start them.
if (process.env.NODE_TEST_CONTEXT !== undefined) {
  for (const name of ['spawn', 'spawnSync', 'exec', 'execSync', 'execFile', 'execFileSync', 'fork']) {
    childProcess[name] = refuse(name);
  }
  syncBuiltinESMExports();
}
