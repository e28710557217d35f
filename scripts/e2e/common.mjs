// Shared paths and helpers for the end-to-end scripts.
import { homedir } from 'node:os';
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

const cache = process.env.CUDA_BANK_LENS_E2E_CACHE || join(homedir(), '.cache', 'cuda-bank-lens-e2e');
const codeServerVersion = process.env.CODE_SERVER_VERSION || '4.100.3';
const codeServerDir = join(cache, `code-server-${codeServerVersion}`);

export const paths = {
  repoRoot,
  cache,
  codeServerVersion,
  codeServerDir,
  codeServerStamp: join(codeServerDir, '.complete'),
  codeServerPkg: join(codeServerDir, 'node_modules', 'code-server'),
  codeServerEntry: join(codeServerDir, 'node_modules', 'code-server', 'out', 'node', 'entry.js'),
  chromium: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
  suiteBundle: join(repoRoot, 'out', 'e2e', 'suite', 'index.js'),
  results: join(repoRoot, 'out', 'e2e', 'results'),
  screenshots: process.env.CUDA_BANK_LENS_E2E_SCREENSHOTS || join(repoRoot, 'docs', 'images'),
};

export const APT_PACKAGES = ['chromium', 'libkrb5-dev', 'ripgrep', 'neovim', 'fonts-liberation', 'fonts-dejavu-core'];

export function log(msg) {
  console.log(`[e2e] ${msg}`);
}

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-dev-shm-usage',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];
