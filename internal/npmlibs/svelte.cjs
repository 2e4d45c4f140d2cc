// Bundles a Svelte app as its build does: esbuild with esbuild-svelte, which
// compiles each .svelte file with the Svelte compiler (client code, styles
// injected). Run by BundleSvelte as `node - ENTRY OUTFILE NODE_MODULES` (this
// file on stdin), from the directory that holds NODE_MODULES.
"use strict";
const esbuild = require("esbuild");
const sveltePlugin = require("esbuild-svelte");

const [entry, outfile, nodeModules] = process.argv.slice(2);
esbuild
  .build({
    entryPoints: [entry],
    outfile,
    bundle: true,
    format: "iife",
    minify: true,
    logLevel: "error",
    nodePaths: [nodeModules], // the app's files are elsewhere: bare imports resolve here
    mainFields: ["svelte", "browser", "module", "main"],
    conditions: ["svelte", "browser", "production"],
    define: { "process.env.NODE_ENV": '"production"' },
    plugins: [sveltePlugin({ compilerOptions: { css: "injected" } })],
  })
  .catch(() => process.exit(1));
