// Custom routes of domains (uploads, autocomplete, workflow actions): each domain registers a Fastify plugin by name.
import type { FastifyPluginAsync } from 'fastify';

const plugins = new Map<string, FastifyPluginAsync>();

export function registerDomainRoutes(name: string, plugin: FastifyPluginAsync): void {
  if (plugins.has(name)) throw new Error(`domain routes "${name}" registered twice`);
  plugins.set(name, plugin);
}

export function domainRoutes(): Array<[string, FastifyPluginAsync]> {
  return [...plugins.entries()];
}

const publicPlugins = new Map<string, FastifyPluginAsync>();

/** Routes without login (the customer's link): each must check its own access and limit its own rate. */
export function registerPublicRoutes(name: string, plugin: FastifyPluginAsync): void {
  if (publicPlugins.has(name)) throw new Error(`public routes "${name}" registered twice`);
  publicPlugins.set(name, plugin);
}

export function publicRoutes(): Array<[string, FastifyPluginAsync]> {
  return [...publicPlugins.entries()];
}
