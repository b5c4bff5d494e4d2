/** `npm run desktop:doctor`: what the desktop app needs and what this checkout has (scripts/desktop/doctor.ts). */
import { fileURLToPath } from 'node:url';
import { doctorReport } from './desktop/doctor';
import { desktopPaths } from './desktop/first-start';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
try {
  const node = { version: process.version, modules: Number(process.versions.modules) };
  console.log(doctorReport({ paths: desktopPaths(ROOT), env: process.env, platform: process.platform, arch: process.arch, node }));
} catch (error) {
  console.error(`desktop doctor: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
