// Per-resource extension points; each resource's domain registers its own (app.extensions.resourceHooks).
import type { Expression, SqlBool, Transaction } from 'kysely';
import type { AuthUser } from '../auth/user.ts';
import type { JsonSchema, ResourceDefinition } from '../../shared/definitions/types.ts';
import type { Database } from '../db/connection.ts';

export interface WriteContext {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  trx: Transaction<any>;
  user: AuthUser;
  def: ResourceDefinition;
  /** Normalised client input, before secrets are hashed. */
  input: Record<string, unknown>;
  /** The stored row before the write (update and delete only). */
  before?: Record<string, unknown>;
  /** The stored row after the write (afterWrite only). */
  after?: Record<string, unknown>;
  /** The token of the request, so a hook can end every session but this one. */
  tokenId?: number;
}

export interface ResourceHooks {
  beforeWrite?(operation: 'create' | 'update', ctx: WriteContext): Promise<void>;
  afterWrite?(operation: 'create' | 'update', ctx: WriteContext): Promise<void>;
  beforeDelete?(ctx: WriteContext): Promise<void>;
  /** Before a workflow event is applied to the locked record (e.g. refuse an action on a stale calculation). */
  beforeTransition?(event: string, ctx: WriteContext & { before: Record<string, unknown> }): Promise<void>;
  /** List filters that are not columns (filter[targa] inside the vehicles, filter[scade_il_mese_prossimo]). */
  listFilters?: Record<string, (value: string, user: AuthUser) => Expression<SqlBool>>;
  /** Field-level read rules (e.g. values only some permissions may see); runs on every record returned. */
  presentRecord?(record: Record<string, unknown>, user: AuthUser): Record<string, unknown>;
  /**
   * What the answer of one record (GET by id) carries beyond its columns, read for that record only (never in lists):
   * the properties' schemas (added read-only to the entity's) and their values.
   */
  readOne?: {
    properties: Record<string, JsonSchema>;
    load(db: Database, record: Record<string, unknown>, user: AuthUser): Promise<Record<string, unknown>>;
  };
}
