-- RunEvent: no foreign key to "Run". Every writer of the log reserves its seqs under the Run row's
-- lock in the same statement or transaction (the run store's commit joins its UPDATE of the row,
-- lib/events appendEvents updates "nextSeq" first), so an event can never name a missing run. The
-- key re-checked that per inserted row, about four times per step, a trigger query each: about a
-- tenth of PostgreSQL's CPU per commit (bench/engine/commit-cost.ts). Deleting runs still deletes
-- their events, as ON DELETE CASCADE did, by the statement trigger below, which the cascades from
-- "WorkflowVersion" and "User" fire too. A writer racing a delete waits for the Run row's lock and
-- then finds no row, so it writes nothing.
ALTER TABLE "RunEvent" DROP CONSTRAINT "RunEvent_runId_fkey";

-- The body spells its semicolons \073: Prisma's pg adapter, which runs migrations where the native
-- schema engine is missing (../shared/tools), splits a migration at every semicolon, quoted or not.
CREATE FUNCTION "weft_delete_run_events"() RETURNS trigger LANGUAGE plpgsql AS
  E'BEGIN DELETE FROM "RunEvent" e USING deleted_runs d WHERE e."runId" = d.id\073 RETURN NULL\073 END';

CREATE TRIGGER "Run_delete_events" AFTER DELETE ON "Run"
  REFERENCING OLD TABLE AS deleted_runs FOR EACH STATEMENT EXECUTE FUNCTION "weft_delete_run_events"();
