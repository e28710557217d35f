// `npm run package`: bundles (scripts/build.mjs), then packs a .vsix offline with `vsce package --no-dependencies`
// and checks what went in: the bundles and both tree-sitter .wasm files, no sources or tests, under 5 MB.
import { execFileSync } from 'child_process';
import { readFileSync, statSync, existsSync } from 'fs';
import { createRequire } from 'module';
import path from 'path';
import { fileURLToPath } from 'url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
const MAX_BYTES = 5 * 1024 * 1024;
const REQUIRED = ['extension/package.json', 'extension/dist/server.js', 'extension/dist/client.js',
  'extension/dist/web-tree-sitter.wasm', 'extension/dist/tree-sitter-cuda.wasm', 'extension/syntaxes/bank-lens-directive.tmLanguage.json'];
const FORBIDDEN = [/\.ts$/, /^extension\/(server|client|test|scripts|examples|node_modules|scratch)\//, /\.map$/, /\.vsix$/];

/** Names of the entries of a zip file, read from its central directory. */
export function zipEntries(file) {
  const buf = readFileSync(file);
  let eocd = -1;
  for (let i = buf.length - 22; i >= Math.max(0, buf.length - 22 - 0xffff); i--) {
    if (buf.readUInt32LE(i) === 0x06054b50) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) throw new Error(`${file} is not a zip file`);
  const count = buf.readUInt16LE(eocd + 10);
  let p = buf.readUInt32LE(eocd + 16);
  const names = [];
  for (let n = 0; n < count; n++) {
    if (buf.readUInt32LE(p) !== 0x02014b50) throw new Error('corrupt central directory');
    const nameLen = buf.readUInt16LE(p + 28);
    const extraLen = buf.readUInt16LE(p + 30);
    const commentLen = buf.readUInt16LE(p + 32);
    names.push(buf.toString('utf8', p + 46, p + 46 + nameLen));
    p += 46 + nameLen + extraLen + commentLen;
  }
  return names;
}

function main() {
  const out = path.join(root, `${pkg.name}-${pkg.version}.vsix`);
  execFileSync(process.execPath, [path.join(root, 'scripts', 'build.mjs')], { cwd: root, stdio: 'inherit' });
  const vsce = path.join(path.dirname(require.resolve('@vscode/vsce/package.json')), 'vsce');
  execFileSync(process.execPath, [vsce, 'package', '--no-dependencies', '--no-update-package-json', '--out', out], {
    cwd: root,
    stdio: ['ignore', 'inherit', 'inherit'],
    env: { ...process.env, VSCE_TELEMETRY: 'off' },
  });
  if (!existsSync(out)) throw new Error(`vsce did not write ${out}`);
  const entries = zipEntries(out);
  const missing = REQUIRED.filter((f) => !entries.includes(f));
  const forbidden = entries.filter((e) => FORBIDDEN.some((re) => re.test(e)));
  const size = statSync(out).size;
  const problems = [];
  if (missing.length) problems.push(`missing from the .vsix: ${missing.join(', ')}`);
  if (forbidden.length) problems.push(`should not be in the .vsix: ${forbidden.join(', ')}`);
  if (size > MAX_BYTES) problems.push(`the .vsix is ${(size / 1048576).toFixed(2)} MB, over the 5 MB limit`);
  console.log(`${path.relative(root, out)}: ${(size / 1048576).toFixed(2)} MB, ${entries.length} entries`);
  for (const e of entries.filter((e) => e.startsWith('extension/'))) console.log(`  ${e}`);
  if (problems.length) {
    for (const p of problems) console.error(`package: ${p}`);
    process.exit(1);
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
