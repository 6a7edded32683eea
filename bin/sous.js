#!/usr/bin/env node
// The `sous` command: the bundled CLI (built by `npm run build` into out/main/cli.js).
import '../out/main/cli.js'
