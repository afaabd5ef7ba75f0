// Bundles the extension and its dependencies into one file, so the .vsix needs no node_modules.
import * as esbuild from 'esbuild';

const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');

const context = await esbuild.context({
  entryPoints: ['src/extension.ts'],
  bundle: true,
  outfile: 'dist/extension.js',
  external: ['vscode'],
  format: 'cjs',
  platform: 'node',
  target: 'node18',
  minify: production,
  sourcemap: !production,
  sourcesContent: false,
  logLevel: 'warning',
});

if (watch) {
  await context.watch();
} else {
  await context.rebuild();
  await context.dispose();
}
