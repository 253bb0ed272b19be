// What the domains add to the engine, held by one app instance (never module state): each domain is a named
// Fastify plugin that registers its hooks, checks, migrations, views, workflow actions and routes here.
import Fastify, { type FastifyInstance, type FastifyPluginAsync } from 'fastify';
import fp from 'fastify-plugin';
import type { Database } from './db/connection.ts';
import type { Definitions } from '../shared/definitions/types.ts';
import { DefinitionError } from '../shared/definitions/compile.ts';
import type { ResourceHooks } from './resources/hooks.ts';
import { BUILT_IN_CHECKS, type RecordCheck } from './resources/checks.ts';
import { BUILT_IN_ACTIONS, type WorkflowAction } from './workflow/actions.ts';
import { lintWorkflow } from '../shared/workflow/lint.ts';
import { Workflow, type WorkflowDefinition } from '../shared/workflow/machine.ts';
import { guardsWith, type GuardSet } from '../shared/workflow/guards.ts';
import type { SignatureOwner } from './firma/service.ts';
import type { Transaction } from 'kysely';
import type { MediaStore } from './media/store.ts';
import type { Job } from './scheduler/scheduler.ts';

export type MigrationStatement = string | { requires: 'pg_trgm'; sql: string };

/** A start-up step a domain owns (e.g. loading reference data); the note says what it did, for the start-up line. */
export type PrepareStep = (db: Database) => Promise<string | undefined>;

/** Service names shared by domains. */
export const CONTRATTO_EMESSO = 'quotazione.contrattoEmesso';
/** The contract to sign of an issued quotation, stored as a new version of its documents. */
export type ContrattoEmesso = (media: MediaStore, trx: Transaction<any>, id: number, user?: { id: number; name: string }) => Promise<void>; // eslint-disable-line @typescript-eslint/no-explicit-any

export class Extensions {
  private readonly hooks = new Map<string, ResourceHooks>();
  private readonly checks = new Map<string, RecordCheck>(Object.entries(BUILT_IN_CHECKS));
  private readonly actions = new Map<string, WorkflowAction>(Object.entries(BUILT_IN_ACTIONS));
  private readonly migrations = new Map<string, MigrationStatement[]>();
  private readonly views = new Map<string, string>();
  private readonly owners = new Map<string, SignatureOwner>();
  private readonly staffRoutes = new Map<string, FastifyPluginAsync>();
  private readonly openRoutes = new Map<string, FastifyPluginAsync>();
  private readonly steps = new Map<string, PrepareStep>();
  private readonly guards = new Map<string, GuardSet>();
  private readonly services = new Map<string, unknown>();
  private readonly domainJobs = new Map<string, Job>();
  private placeCodeLoader?: (db: Database) => Promise<ReadonlySet<string>>;

  constructor(readonly definitions: Definitions) {}

  private resource(what: string, resource: string, taken: Map<string, unknown>): void {
    if (!this.definitions.resources.has(resource)) throw new Error(`${what} for resource "${resource}": the definitions declare no such resource`);
    if (taken.has(resource)) throw new Error(`${what} for resource "${resource}" registered twice`);
  }

  private unique(what: string, name: string, taken: Map<string, unknown>): void {
    if (taken.has(name)) throw new Error(`${what} "${name}" registered twice`);
  }

  // ---- registration (from the domain plugins)

  /** A function one domain offers the others by name (domains import no other domain; they look it up here). */
  service(name: string, implementation: unknown): void {
    this.unique('service', name, this.services);
    this.services.set(name, implementation);
  }

  /** A service registered by another domain: looked up when used, so the registration order does not matter. */
  serviceOf<T>(name: string): T {
    const found = this.services.get(name);
    if (found === undefined) throw new Error(`service "${name}" is not registered by any domain`);
    return found as T;
  }

  /** The resource's write, delete, transition and read hooks. */
  resourceHooks(resource: string, hooks: ResourceHooks): void {
    this.resource('hooks', resource, this.hooks);
    this.hooks.set(resource, hooks);
  }

  /** A record check named by a root annotation of entity schemas ("x-codice-fiscale"); some schema must use it. */
  recordCheck(annotation: string, check: RecordCheck): void {
    this.unique('record check', annotation, this.checks);
    const users = [...this.definitions.resources.values()].filter((d) => d.schema[annotation] !== undefined);
    if (!users.length) throw new Error(`record check "${annotation}": no resource's entity schema declares it`);
    this.checks.set(annotation, check);
  }

  /** Idempotent database objects a resource needs beyond what its schema derives (functions, expression indexes, side tables). */
  migration(resource: string, statements: MigrationStatement[]): void {
    this.resource('migration', resource, this.migrations);
    this.migrations.set(resource, statements);
  }

  /** The SELECT of a view resource ("view": true in resource.json). */
  view(resource: string, select: string): void {
    this.resource('view', resource, this.views);
    if (!this.definitions.resources.get(resource)!.resource.view) throw new Error(`view for resource "${resource}": its resource.json does not declare "view": true`);
    this.views.set(resource, select);
  }

  /** A side effect workflow transitions name ({"type": name}); the workflow lint then knows it. */
  workflowAction(name: string, run: WorkflowAction): void {
    this.unique('workflow action', name, this.actions);
    this.actions.set(name, run);
  }

  /** A workflow machine's own guards (workflows/<machine>.json), beside the generic ones. */
  workflowGuards(machine: string, guards: GuardSet): void {
    if (!this.definitions.workflows.has(machine)) throw new Error(`guards for workflow "${machine}": no workflows/${machine}.json`);
    this.unique('guards for workflow', machine, this.guards);
    this.guards.set(machine, guards);
  }

  /** Who receives a completed signature request of the resource's records. */
  signatureOwner(resource: string, owner: SignatureOwner): void {
    this.resource('signature owner', resource, this.owners);
    this.owners.set(resource, owner);
  }

  /** Routes behind login; each declares its own permissions (requirePermission). */
  routes(name: string, plugin: FastifyPluginAsync): void {
    this.unique('routes', name, this.staffRoutes);
    this.staffRoutes.set(name, plugin);
  }

  /** Routes without login (the customer's link): each must check its own access and limit its own rate. */
  publicRoutes(name: string, plugin: FastifyPluginAsync): void {
    this.unique('public routes', name, this.openRoutes);
    this.openRoutes.set(name, plugin);
  }

  /** A job the scheduler may run (schemas/_shared/pianificazioni.json names it in "lavoro"), beside the engine's. */
  job(name: string, run: Job): void {
    this.unique('job', name, this.domainJobs);
    this.domainJobs.set(name, run);
  }

  /** The domains' jobs, by name. */
  jobs(): ReadonlyMap<string, Job> {
    return this.domainJobs;
  }

  /** A step of the database preparation, after the migration and the roles. */
  prepare(name: string, step: PrepareStep): void {
    this.unique('start-up step', name, this.steps);
    this.steps.set(name, step);
  }

  /** Where the cadastral codes come from (the codice fiscale and place formats check against them). */
  placeCodes(loader: (db: Database) => Promise<ReadonlySet<string>>): void {
    if (this.placeCodeLoader) throw new Error('place codes registered twice');
    this.placeCodeLoader = loader;
  }

  // ---- use (by the engine)

  hooksFor(resource: string): ResourceHooks {
    return this.hooks.get(resource) ?? {};
  }

  recordChecks(): Iterable<[string, RecordCheck]> {
    return this.checks.entries();
  }

  action(name: string): WorkflowAction | undefined {
    return this.actions.get(name);
  }

  guardsFor(machine: string): GuardSet {
    return this.guards.get(machine) ?? {};
  }

  /** Every machine as the engine runs it: with its domain's guards. */
  /** `templateValues`: what the e-mail templates may name besides the record ({APP_URL}), from the configuration. */
  workflows(templateValues: Record<string, string> = {}): Map<string, Workflow> {
    return new Map([...this.definitions.workflows].map(([name, json]) => {
      const definition = json as WorkflowDefinition;
      return [name, new Workflow({ ...definition, meta: { ...definition.meta, templateValues } }, this.guardsFor(name))];
    }));
  }

  actionNames(): string[] {
    return [...this.actions.keys()];
  }

  domainMigrations(): MigrationStatement[][] {
    return [...this.migrations.values()];
  }

  viewOf(resource: string): string | undefined {
    return this.views.get(resource);
  }

  ownerOf(resource: string): SignatureOwner | undefined {
    return this.owners.get(resource);
  }

  routePlugins(): FastifyPluginAsync[] {
    return [...this.staffRoutes.values()];
  }

  publicRoutePlugins(): FastifyPluginAsync[] {
    return [...this.openRoutes.values()];
  }

  prepareSteps(): Array<[string, PrepareStep]> {
    return [...this.steps.entries()];
  }

  async loadPlaceCodes(db: Database): Promise<ReadonlySet<string>> {
    return this.placeCodeLoader ? this.placeCodeLoader(db) : new Set();
  }

  /** Once every domain registered: the machines name only implemented actions and guards. */
  verify(): void {
    for (const [name, json] of this.definitions.workflows) {
      const problems = lintWorkflow(json as WorkflowDefinition, { actions: this.actionNames(), guards: Object.keys(guardsWith(this.guardsFor(name))) });
      if (problems.length) throw new DefinitionError(`../workflows/${name}.json`, '', problems.join(' '));
    }
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    extensions: Extensions;
  }
}

/** A domain: a named plugin (name "domain:<folder>") whose body registers on app.extensions. */
export type Domain = ReturnType<typeof defineDomain>;

export function defineDomain(name: string, register: (app: FastifyInstance) => void | Promise<void>, dependencies: string[] = []) {
  return fp(async (app: FastifyInstance) => {
    await register(app);
  }, { name: `domain:${name}`, dependencies: dependencies.map((d) => `domain:${d}`), fastify: '5.x' });
}

/** Registers the domains on `app` (decorating app.extensions first) and checks what they registered. */
export async function registerDomains(app: FastifyInstance, definitions: Definitions, domains: readonly Domain[]): Promise<Extensions> {
  const extensions = new Extensions(definitions);
  app.decorate('extensions', extensions);
  for (const domain of domains) await app.register(domain);
  extensions.verify();
  return extensions;
}

/** The domains' registrations without an HTTP app: for the database preparation and the definitions lint. */
export async function collectExtensions(definitions: Definitions, domains: readonly Domain[]): Promise<Extensions> {
  const app = Fastify({ logger: false });
  try {
    const extensions = await registerDomains(app, definitions, domains);
    await app.ready();
    return extensions;
  } finally {
    await app.close();
  }
}
