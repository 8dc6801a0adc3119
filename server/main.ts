// `npm start`: the serving process. Everything lives in cli.ts; this file only runs it.
import { runCli } from './cli';

runCli(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    // A bug, not a user mistake: still one line, never a stack trace on the console.
    process.stderr.write(`iris: unexpected failure: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
