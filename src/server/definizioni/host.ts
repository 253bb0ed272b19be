// Serves the app of the current definitions version and swaps it, without a restart, when a version is applied on any
// instance (LISTEN definizioni): the new set's whole app (validators, routes, OpenAPI, machines, menus) is built beside
// the old one, requests arriving from then on go to it, and the old app closes once its running requests have finished.
import http from 'node:http';
import pg from 'pg';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import type { Database } from '../db/connection.ts';
import type { DefinitionFiles } from '../definitions.ts';
import { DEFINIZIONI_CHANNEL, latestVersion, readVersion } from './store.ts';

/** Builds (and readies) the app of a set; `applied` is how its routes make this host take a version at once. */
export type BuildFor = (set: { files: DefinitionFiles; versione: number }, applied: (n: number) => Promise<void>) => Promise<FastifyInstance>;

interface Served {
  app: FastifyInstance;
  versione: number;
  running: number;
  idle?: () => void;
}

const RECONNECT_MS = 1000;
/** How long a replaced app waits for its running requests (an export streams for a while) before it closes anyway. */
const DRAIN_LIMIT_MS = 10 * 60 * 1000;

export class DefinitionsHost {
  private served!: Served;
  private readonly retiring = new Set<FastifyInstance>();
  private queue: Promise<void> = Promise.resolve();
  private client: pg.Client | undefined;
  private retry: NodeJS.Timeout | undefined;
  private closed = false;
  /** Called after each swap with the new app and the one it replaced (the scheduler's tick moves to the new one). */
  onSwap: (next: FastifyInstance, previous: FastifyInstance) => void = () => {};
  readonly server: http.Server;

  private constructor(private readonly db: Database, private readonly listenConfig: pg.ClientConfig | undefined, private readonly build: BuildFor, private readonly log: (line: string) => void) {
    this.server = http.createServer((request, response) => this.handle(request, response));
    // Fastify's own server defaults: idle keep-alive connections outlive a load balancer's.
    this.server.keepAliveTimeout = 72_000;
    this.server.on('clientError', (_error, socket) => {
      if (socket.writable) socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n');
      else socket.destroy();
    });
  }

  static async start(options: { db: Database; listen?: pg.ClientConfig; set: { files: DefinitionFiles; versione: number }; build: BuildFor; log?: (line: string) => void }): Promise<DefinitionsHost> {
    const host = new DefinitionsHost(options.db, options.listen, options.build, options.log ?? (() => {}));
    host.served = { app: await host.buildReady(options.set), versione: options.set.versione, running: 0 };
    if (options.listen) await host.listen().catch((error: Error) => host.log(`definizioni: ascolto non riuscito (${error.message}), riprovo`));
    return host;
  }

  get app(): FastifyInstance {
    return this.served.app;
  }

  get versione(): number {
    return this.served.versione;
  }

  private async buildReady(set: { files: DefinitionFiles; versione: number }): Promise<FastifyInstance> {
    const app = await this.build(set, (n) => this.take(n));
    await app.ready();
    return app;
  }

  private handle(request: http.IncomingMessage, response: http.ServerResponse): void {
    const served = this.served;
    served.running++;
    response.once('close', () => {
      if (--served.running === 0) served.idle?.();
    });
    served.app.routing(request, response);
  }

  /** A test's request to whatever app is current. */
  inject(options: InjectOptions | string): Promise<LightMyRequestResponse> {
    return this.served.app.inject(options);
  }

  /** Takes version n (or the newest, without n) when it is newer than the one served; one swap at a time. */
  take(n?: number): Promise<void> {
    const next = this.queue.then(() => this.swapTo(n)).catch((error: Error) => this.log(`definizioni: versione ${n ?? 'più recente'} non caricata: ${error.message}`));
    this.queue = next;
    return next;
  }

  private async swapTo(n: number | undefined): Promise<void> {
    if (this.closed) return;
    const wanted = n ?? await latestVersion(this.db);
    if (wanted <= this.served.versione) return;
    const version = await readVersion(this.db, wanted);
    if (!version) return;
    const t0 = performance.now();
    const app = await this.buildReady({ files: version.files, versione: version.n });
    const previous = this.served;
    this.served = { app, versione: version.n, running: 0 };
    this.onSwap(app, previous.app);
    this.log(`definizioni: versione ${version.n} servita (app costruita in ${Math.round(performance.now() - t0)} ms)`);
    this.retire(previous);
  }

  /** The replaced app closes when its last running request has finished. */
  private retire(previous: Served): void {
    const drained = new Promise<void>((resolve) => {
      if (previous.running === 0) return resolve();
      const timer = setTimeout(resolve, DRAIN_LIMIT_MS);
      previous.idle = () => {
        clearTimeout(timer);
        resolve();
      };
    });
    this.retiring.add(previous.app);
    void drained.then(() => {
      if (this.retiring.delete(previous.app)) return previous.app.close();
    }).catch(() => {});
  }

  /** One connection of its own on LISTEN definizioni; after a loss it reconnects and catches up with the newest version. */
  private async listen(): Promise<void> {
    if (this.closed || !this.listenConfig) return;
    const client = new pg.Client(this.listenConfig);
    this.client = client;
    const lost = () => {
      if (this.client !== client) return;
      this.client = undefined;
      client.end().catch(() => {});
      if (!this.closed) this.retry = setTimeout(() => void this.listen().catch(() => {}), RECONNECT_MS);
    };
    client.on('error', lost);
    client.on('end', lost);
    client.on('notification', (message) => {
      if (message.channel === DEFINIZIONI_CHANNEL) void this.take(Number(message.payload));
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${DEFINIZIONI_CHANNEL}`);
    } catch (error) {
      lost();
      throw error;
    }
    // A version applied while this connection was down was not heard.
    void this.take();
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.retry);
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(() => {});
    await this.queue;
    const stopped = new Promise<void>((resolve) => (this.server.listening ? this.server.close(() => resolve()) : resolve()));
    this.server.closeIdleConnections();
    const apps = [this.served.app, ...this.retiring];
    this.retiring.clear();
    await Promise.all(apps.map((app) => app.close().catch(() => {})));
    this.server.closeAllConnections();
    await stopped;
  }
}
