-- hand-written
-- The audit log is append-only (docs/ARCHITECTURE.md "Audit log"). Two changes are let through:
-- the cascade of a tenant's deletion (the tenant row is already gone when the cascade runs) and
-- the foreign key's SET NULL of actor_id when the acting member is deleted (name and email stay).
CREATE FUNCTION audit_log_guard() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    RAISE EXCEPTION 'audit_log cannot be truncated' USING ERRCODE = 'insufficient_privilege';
  END IF;
  IF TG_OP = 'DELETE' THEN
    IF EXISTS (SELECT 1 FROM tenants WHERE id = OLD.tenant_id) THEN
      RAISE EXCEPTION 'audit_log rows cannot be deleted' USING ERRCODE = 'insufficient_privilege';
    END IF;
    RETURN OLD;
  END IF;
  IF OLD.actor_id IS NOT NULL AND NEW.actor_id IS NULL
     AND (to_jsonb(NEW) - 'actor_id') = (to_jsonb(OLD) - 'actor_id') THEN
    RETURN NEW;
  END IF;
  RAISE EXCEPTION 'audit_log rows cannot be changed' USING ERRCODE = 'insufficient_privilege';
END;
$$;
--> statement-breakpoint
CREATE TRIGGER audit_log_guard BEFORE UPDATE OR DELETE ON audit_log FOR EACH ROW EXECUTE FUNCTION audit_log_guard();
--> statement-breakpoint
-- TRUNCATE skips row triggers: refuse it too (a tenant's deletion never truncates).
CREATE TRIGGER audit_log_no_truncate BEFORE TRUNCATE ON audit_log FOR EACH STATEMENT EXECUTE FUNCTION audit_log_guard();
