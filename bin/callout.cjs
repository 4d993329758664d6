#!/usr/bin/env node
'use strict';
// `callout` CLI launcher: runs the built CLI (npm run build writes out/main/cli.js).
const { existsSync } = require('node:fs');
const { join } = require('node:path');

const cli = join(__dirname, '..', 'out', 'main', 'cli.js');
if (!existsSync(cli)) {
  process.stderr.write('callout: the CLI is not built yet; run `npm run build` in the Callout folder first.\n');
  process.exit(2);
}
require(cli);
