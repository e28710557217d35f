// What the Node runner tells the extension-host suite, through config.json beside the bundle (environment
// variables override it where they reach the extension host).
import * as fs from 'fs';
import * as path from 'path';

export interface SuiteConfig {
  runId: string;
  resultFile: string;
  /** JSON written by the runner from the CLI's `--format json`: the conflicts each example must show. */
  expectedFile: string;
  grep?: string;
  testTimeoutMs: number;
  /** how long to wait for diagnostics, hovers, ... to appear. */
  waitMs: number;
}

export interface TestRecord {
  title: string;
  state: 'passed' | 'failed' | 'pending';
  durationMs: number;
  error?: string;
}

export interface SuiteResult {
  state: 'running' | 'done';
  runId: string;
  vscodeVersion: string;
  host: string;
  startedAt: string;
  finishedAt?: string;
  passed: number;
  failed: number;
  pending: number;
  error?: string;
  tests: TestRecord[];
}

export function readSuiteConfig(dir: string): SuiteConfig {
  let raw: Partial<SuiteConfig> = {};
  try {
    raw = JSON.parse(fs.readFileSync(path.join(dir, 'config.json'), 'utf8'));
  } catch {
    // no config: defaults below
  }
  const env = process.env;
  return {
    runId: raw.runId ?? 'unknown',
    resultFile: env.CUDA_BANK_LENS_E2E_RESULT || raw.resultFile || path.resolve(dir, '..', 'results', 'suite.json'),
    expectedFile: env.CUDA_BANK_LENS_E2E_EXPECTED || raw.expectedFile || path.resolve(dir, '..', 'expected.json'),
    grep: env.CUDA_BANK_LENS_E2E_GREP || raw.grep || undefined,
    testTimeoutMs: Number(env.CUDA_BANK_LENS_E2E_TEST_TIMEOUT_MS || raw.testTimeoutMs || 90_000),
    waitMs: Number(env.CUDA_BANK_LENS_E2E_WAIT_MS || raw.waitMs || 45_000),
  };
}
