// Start the real junqi server (`junqi serve`) on a free port with a fresh data directory.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
export const ROOT = path.resolve(here, '../../..');
export const BIN = process.env.JUNQI_BIN || path.join(ROOT, 'target/debug/junqi');

function freePort() {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

// Bots answer at once in tests unless a test asks for pacing (passes its own --bot-delay-ms).
export async function startServer(extraArgs = []) {
  if (!existsSync(BIN)) throw new Error(`${BIN} not found: build it with cargo build -p junqi`);
  const port = await freePort();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'junqi-data-'));
  const extra = (process.env.JUNQI_SERVE_ARGS || '').split(/\s+/).filter(Boolean);
  const paced = [...extra, ...extraArgs].includes('--bot-delay-ms');
  // Every browser is 127.0.0.1: the per-address guest throttle would stop a long suite.
  const args = ['serve', '--addr', `127.0.0.1:${port}`, '--data-dir', dataDir,
    '--guests-per-hour', '1000000',
    ...(paced ? [] : ['--bot-delay-ms', '0']), ...extra, ...extraArgs];
  const proc = spawn(BIN, args, { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, RUST_LOG: process.env.RUST_LOG || 'warn' } });
  let output = '';
  proc.stdout.on('data', (d) => { output += d; });
  proc.stderr.on('data', (d) => { output += d; });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 30000;
  for (;;) {
    if (proc.exitCode !== null) throw new Error(`junqi serve exited (${proc.exitCode}):\n${output}`);
    try {
      const r = await fetch(`${url}/api/info`);
      if (r.ok) break;
    } catch { /* not yet */ }
    if (Date.now() > deadline) {
      proc.kill();
      throw new Error(`junqi serve did not answer on ${url}:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 150));
  }
  const stop = async () => {
    if (proc.exitCode === null) {
      proc.kill('SIGTERM');
      await new Promise((r) => { proc.once('exit', r); setTimeout(r, 3000); });
    }
    rmSync(dataDir, { recursive: true, force: true });
  };
  return { url, port, proc, stop, output: () => output };
}
