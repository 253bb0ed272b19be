// Vite plugin: per output file, the gzip bytes each npm package (or the app's own code) adds, written beside the
// manifest as .vite/packages.json, so bundle-size.ts can say which packages a route's JavaScript is made of.
import { gzipSync } from 'node:zlib';
import type { Plugin } from 'vite';

export const PACKAGES_FILE = '.vite/packages.json';

/** file → package → gzip bytes of that package's modules in the file (each package compressed on its own). */
export type PackageSizes = Record<string, Record<string, number>>;

/** "react-dom", "@rjsf/core", or "app" for the project's own modules. */
function packageOf(moduleId: string): string {
  const match = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(moduleId);
  return match ? match[1] : 'app';
}

export function packageSizes(): Plugin {
  return {
    name: 'package-sizes',
    apply: 'build',
    generateBundle(_options, bundle) {
      const sizes: PackageSizes = {};
      for (const output of Object.values(bundle)) {
        if (output.type !== 'chunk') continue;
        const code = new Map<string, string[]>();
        for (const [id, module] of Object.entries(output.modules)) {
          const name = packageOf(id);
          code.set(name, [...(code.get(name) ?? []), module.code ?? '']);
        }
        sizes[output.fileName] = Object.fromEntries([...code].map(([name, parts]) => [name, gzipSync(parts.join('\n')).length]));
      }
      this.emitFile({ type: 'asset', fileName: PACKAGES_FILE, source: JSON.stringify(sizes) });
    },
  };
}
