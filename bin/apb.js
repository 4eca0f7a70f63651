#!/usr/bin/env node
// Thin launcher: the compiled CLI lives in dist/ (built by `npm install` through the prepare script).
const cli = await import('../dist/cli/main.js');
const code = await cli.main(process.argv.slice(2));
// Exit once stdout has drained, so piped output is never cut short by keep-alive sockets.
process.stdout.write('', () => process.exit(code));
