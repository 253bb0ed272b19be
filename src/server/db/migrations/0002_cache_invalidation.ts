// Every app instance caches sessions, grants and settings; a change made by any instance (or by hand in psql)
// tells all of them through NOTIFY app_cache, sent by PostgreSQL itself at commit, so no writer can forget it.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // TG_ARGV[0] names the kind, TG_ARGV[1] the column that identifies the row (none: the whole kind).
  await sql`CREATE OR REPLACE FUNCTION app_cache_notify() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_LEVEL = 'ROW' AND TG_NARGS > 1 THEN
        PERFORM pg_notify('app_cache', TG_ARGV[0] || ':' || (to_jsonb(COALESCE(NEW, OLD)) ->> TG_ARGV[1]));
      ELSE
        PERFORM pg_notify('app_cache', TG_ARGV[0]);
      END IF;
      RETURN NULL;
    END $$`.execute(db);
  await sql`CREATE OR REPLACE TRIGGER auth_token_cache AFTER UPDATE OR DELETE ON auth_token
    FOR EACH ROW EXECUTE FUNCTION app_cache_notify('token', 'token_hash')`.execute(db);
  await sql`CREATE OR REPLACE TRIGGER utente_cache AFTER UPDATE OR DELETE ON utente
    FOR EACH ROW EXECUTE FUNCTION app_cache_notify('user', 'id')`.execute(db);
  await sql`CREATE OR REPLACE TRIGGER app_setting_cache AFTER INSERT OR UPDATE OR DELETE ON app_setting
    FOR EACH ROW EXECUTE FUNCTION app_cache_notify('setting', 'key')`.execute(db);
  await sql`CREATE OR REPLACE TRIGGER auth_role_permission_cache AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON auth_role_permission
    FOR EACH STATEMENT EXECUTE FUNCTION app_cache_notify('roles')`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const [trigger, table] of [['auth_token_cache', 'auth_token'], ['utente_cache', 'utente'], ['app_setting_cache', 'app_setting'], ['auth_role_permission_cache', 'auth_role_permission']]) {
    await sql`DROP TRIGGER IF EXISTS ${sql.raw(trigger!)} ON ${sql.raw(table!)}`.execute(db);
  }
  await sql`DROP FUNCTION IF EXISTS app_cache_notify()`.execute(db);
}
