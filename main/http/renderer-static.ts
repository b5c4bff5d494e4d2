import { existsSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';

/** True when a path belongs to the API (never answered with a renderer file). */
export function isApiPath(url: string): boolean {
  const path = url.split('?')[0] ?? '';
  return path === '/api' || path.startsWith('/api/');
}

/**
 * Serves the built renderer (`vite build` output). Returns false when the folder or its index.html is
 * missing, so the caller can say so; the API works either way.
 */
export async function registerRenderer(app: FastifyInstance, rendererDir: string | undefined): Promise<boolean> {
  if (!rendererDir || !existsSync(join(rendererDir, 'index.html'))) return false;
  await app.register(fastifyStatic, {
    root: rendererDir,
    prefix: '/',
    index: ['index.html'],
    dotfiles: 'ignore',
    allowedPath: (pathName) => !isApiPath(pathName),
  });
  return true;
}
