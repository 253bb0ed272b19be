// A session's cached row says whether its user must still turn on two-step verification: enrolling, an exemption
// or a role's requirement changing must evict it on every instance.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE OR REPLACE TRIGGER auth_mfa_cache AFTER INSERT OR UPDATE OF attiva OR DELETE ON auth_mfa
    FOR EACH ROW EXECUTE FUNCTION app_cache_notify('user', 'user_id')`.execute(db);
  await sql`CREATE OR REPLACE TRIGGER auth_mfa_esenzione_cache AFTER INSERT OR UPDATE OR DELETE ON auth_mfa_esenzione
    FOR EACH ROW EXECUTE FUNCTION app_cache_notify('user', 'user_id')`.execute(db);
  // Rare (a start or a live change of the roles file): every cached session is read again.
  await sql`CREATE OR REPLACE TRIGGER auth_role_mfa_cache AFTER UPDATE OF mfa_richiesta ON auth_role
    FOR EACH STATEMENT EXECUTE FUNCTION app_cache_notify('sessions')`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TRIGGER IF EXISTS auth_mfa_cache ON auth_mfa`.execute(db);
  await sql`DROP TRIGGER IF EXISTS auth_mfa_esenzione_cache ON auth_mfa_esenzione`.execute(db);
  await sql`DROP TRIGGER IF EXISTS auth_role_mfa_cache ON auth_role`.execute(db);
}
