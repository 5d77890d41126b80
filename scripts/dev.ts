/**
 * `npm run dev`: Vite with hot reload on PORT (default 3000) — the address to open — and the API
 * server, restarting on change, on API_PORT (default PORT + 1), to which Vite passes /api and
 * /shopify-emulator.
 */
import { spawn } from 'node:child_process';

const port = Number(process.env.PORT ?? 3000);
const apiPort = Number(process.env.API_PORT ?? port + 1);
const publicUrl = process.env.PUBLIC_URL ?? `http://localhost:${port}`;

const children = [
  spawn('npx', ['tsx', 'watch', '--clear-screen=false', 'server/main.ts'], {
    stdio: 'inherit',
    env: { ...process.env, PORT: String(apiPort), PUBLIC_URL: publicUrl },
  }),
  spawn('npx', ['vite', '--port', String(port), '--strictPort'], {
    stdio: 'inherit',
    env: { ...process.env, DEV_API_ORIGIN: process.env.DEV_API_ORIGIN ?? `http://127.0.0.1:${apiPort}` },
  }),
];
const stop = () => {
  for (const c of children) c.kill('SIGTERM');
  process.exit(0);
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
for (const c of children) c.on('exit', (code) => code && code !== 0 && stop());
