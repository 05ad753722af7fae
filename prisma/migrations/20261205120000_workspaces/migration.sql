-- Workspaces. Every tenant-owned row's "ownerId" (a user) becomes "workspaceId": each user gets a
-- personal workspace whose id is the user's id, so every existing row keeps its key and nothing is
-- copied. Shared workspaces have members with roles, and API tokens remember the member who made them.


CREATE TYPE "WorkspaceRole" AS ENUM ('owner', 'editor', 'runner', 'viewer');

CREATE TABLE "Workspace" (
    "id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "personalOf" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Workspace_pkey" PRIMARY KEY ("id")
);

CREATE TABLE "Membership" (
    "workspaceId" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "role" "WorkspaceRole" NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Membership_pkey" PRIMARY KEY ("workspaceId","userId")
);

CREATE TABLE "Invitation" (
    "id" TEXT NOT NULL,
    "workspaceId" TEXT NOT NULL,
    "role" "WorkspaceRole" NOT NULL,
    "email" TEXT,
    "tokenHash" TEXT NOT NULL,
    "createdById" TEXT NOT NULL,
    "expiresAt" TIMESTAMP(3) NOT NULL,
    "acceptedAt" TIMESTAMP(3),
    "acceptedBy" TEXT,
    "revokedAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Invitation_pkey" PRIMARY KEY ("id")
);

CREATE TABLE "AuditEvent" (
    "id" TEXT NOT NULL,
    "workspaceId" TEXT NOT NULL,
    "actorId" TEXT,
    "via" TEXT NOT NULL,
    "action" TEXT NOT NULL,
    "targetType" TEXT NOT NULL,
    "targetId" TEXT NOT NULL,
    "details" JSONB NOT NULL DEFAULT '{}',
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "AuditEvent_pkey" PRIMARY KEY ("id")
);

CREATE UNIQUE INDEX "Workspace_personalOf_key" ON "Workspace"("personalOf");

CREATE INDEX "Membership_userId_idx" ON "Membership"("userId");

CREATE UNIQUE INDEX "Invitation_tokenHash_key" ON "Invitation"("tokenHash");

CREATE INDEX "Invitation_workspaceId_idx" ON "Invitation"("workspaceId");

CREATE INDEX "AuditEvent_workspaceId_createdAt_idx" ON "AuditEvent"("workspaceId", "createdAt");

-- One personal workspace per user (id = the user's id), its user the owner.
INSERT INTO "Workspace" ("id", "name", "personalOf", "createdAt", "updatedAt")
SELECT "id", 'Personal', "id", "createdAt", CURRENT_TIMESTAMP FROM "User";
INSERT INTO "Membership" ("workspaceId", "userId", "role", "createdAt")
SELECT "id", "id", 'owner', "createdAt" FROM "User";

-- The owner column of every tenant-owned table becomes its workspace, indexes and keys renamed.

ALTER TABLE "Agent" DROP CONSTRAINT IF EXISTS "Agent_ownerId_fkey";

ALTER TABLE "Agent" RENAME COLUMN "ownerId" TO "workspaceId";

ALTER TABLE "ApiToken" DROP CONSTRAINT IF EXISTS "ApiToken_ownerId_fkey";

ALTER TABLE "ApiToken" RENAME COLUMN "ownerId" TO "workspaceId";

ALTER TABLE "Credential" DROP CONSTRAINT IF EXISTS "Credential_ownerId_fkey";

ALTER TABLE "Credential" RENAME COLUMN "ownerId" TO "workspaceId";

ALTER TABLE "Dataset" DROP CONSTRAINT IF EXISTS "Dataset_ownerId_fkey";

ALTER TABLE "Dataset" RENAME COLUMN "ownerId" TO "workspaceId";

ALTER TABLE "DesignerEvaluation" DROP CONSTRAINT IF EXISTS "DesignerEvaluation_ownerId_fkey";

ALTER TABLE "DesignerEvaluation" RENAME COLUMN "ownerId" TO "workspaceId";

ALTER TABLE "Experiment" DROP CONSTRAINT IF EXISTS "Experiment_ownerId_fkey";

ALTER TABLE "Experiment" RENAME COLUMN "ownerId" TO "workspaceId";

ALTER TABLE "KbCollection" DROP CONSTRAINT IF EXISTS "KbCollection_ownerId_fkey";

ALTER TABLE "KbCollection" RENAME COLUMN "ownerId" TO "workspaceId";

ALTER TABLE "KbDocument" DROP CONSTRAINT IF EXISTS "KbDocument_ownerId_fkey";

ALTER TABLE "KbDocument" RENAME COLUMN "ownerId" TO "workspaceId";

ALTER TABLE "ModelCapability" DROP CONSTRAINT IF EXISTS "ModelCapability_ownerId_fkey";

ALTER TABLE "ModelCapability" RENAME COLUMN "ownerId" TO "workspaceId";

ALTER TABLE "ModelProvider" DROP CONSTRAINT IF EXISTS "ModelProvider_ownerId_fkey";

ALTER TABLE "ModelProvider" RENAME COLUMN "ownerId" TO "workspaceId";

ALTER TABLE "Run" DROP CONSTRAINT IF EXISTS "Run_ownerId_fkey";

ALTER TABLE "Run" RENAME COLUMN "ownerId" TO "workspaceId";

ALTER TABLE "RunNotifier" DROP CONSTRAINT IF EXISTS "RunNotifier_ownerId_fkey";

ALTER TABLE "RunNotifier" RENAME COLUMN "ownerId" TO "workspaceId";

ALTER TABLE "Schedule" DROP CONSTRAINT IF EXISTS "Schedule_ownerId_fkey";

ALTER TABLE "Schedule" RENAME COLUMN "ownerId" TO "workspaceId";

ALTER TABLE "ShareLink" DROP CONSTRAINT IF EXISTS "ShareLink_ownerId_fkey";

ALTER TABLE "ShareLink" RENAME COLUMN "ownerId" TO "workspaceId";

ALTER TABLE "Tool" DROP CONSTRAINT IF EXISTS "Tool_ownerId_fkey";

ALTER TABLE "Tool" RENAME COLUMN "ownerId" TO "workspaceId";

ALTER TABLE "Webhook" DROP CONSTRAINT IF EXISTS "Webhook_ownerId_fkey";

ALTER TABLE "Webhook" RENAME COLUMN "ownerId" TO "workspaceId";

ALTER TABLE "Workflow" DROP CONSTRAINT IF EXISTS "Workflow_ownerId_fkey";

ALTER TABLE "Workflow" RENAME COLUMN "ownerId" TO "workspaceId";

ALTER INDEX "Agent_ownerId_idx" RENAME TO "Agent_workspaceId_idx";

ALTER INDEX "ApiToken_ownerId_idx" RENAME TO "ApiToken_workspaceId_idx";

ALTER INDEX "Credential_ownerId_name_key" RENAME TO "Credential_workspaceId_name_key";

ALTER INDEX "Dataset_ownerId_name_key" RENAME TO "Dataset_workspaceId_name_key";

ALTER INDEX "DesignerEvaluation_ownerId_createdAt_idx" RENAME TO "DesignerEvaluation_workspaceId_createdAt_idx";

ALTER INDEX "Experiment_ownerId_createdAt_idx" RENAME TO "Experiment_workspaceId_createdAt_idx";

ALTER INDEX "KbCollection_ownerId_name_key" RENAME TO "KbCollection_workspaceId_name_key";

ALTER INDEX "KbDocument_ownerId_idx" RENAME TO "KbDocument_workspaceId_idx";

ALTER INDEX "ModelProvider_ownerId_name_key" RENAME TO "ModelProvider_workspaceId_name_key";

ALTER INDEX "Run_ownerId_createdAt_idx" RENAME TO "Run_workspaceId_createdAt_idx";

ALTER INDEX "RunNotifier_ownerId_idx" RENAME TO "RunNotifier_workspaceId_idx";

ALTER INDEX "Schedule_ownerId_idx" RENAME TO "Schedule_workspaceId_idx";

ALTER INDEX "Tool_ownerId_name_key" RENAME TO "Tool_workspaceId_name_key";

ALTER INDEX "Webhook_ownerId_idx" RENAME TO "Webhook_workspaceId_idx";

ALTER INDEX "Workflow_ownerId_updatedAt_idx" RENAME TO "Workflow_workspaceId_updatedAt_idx";

-- An API token acts for the member who made it (until now, the workspace's own user).
ALTER TABLE "ApiToken" ADD COLUMN "userId" TEXT;
UPDATE "ApiToken" SET "userId" = "workspaceId";
ALTER TABLE "ApiToken" ALTER COLUMN "userId" SET NOT NULL;

CREATE INDEX "ApiToken_userId_idx" ON "ApiToken"("userId");

ALTER TABLE "Workspace" ADD CONSTRAINT "Workspace_personalOf_fkey" FOREIGN KEY ("personalOf") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

ALTER TABLE "Membership" ADD CONSTRAINT "Membership_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES "Workspace"("id") ON DELETE CASCADE ON UPDATE CASCADE;

ALTER TABLE "Membership" ADD CONSTRAINT "Membership_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

ALTER TABLE "Invitation" ADD CONSTRAINT "Invitation_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES "Workspace"("id") ON DELETE CASCADE ON UPDATE CASCADE;

ALTER TABLE "Invitation" ADD CONSTRAINT "Invitation_createdById_fkey" FOREIGN KEY ("createdById") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

ALTER TABLE "AuditEvent" ADD CONSTRAINT "AuditEvent_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES "Workspace"("id") ON DELETE CASCADE ON UPDATE CASCADE;

ALTER TABLE "ApiToken" ADD CONSTRAINT "ApiToken_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES "Workspace"("id") ON DELETE CASCADE ON UPDATE CASCADE;

ALTER TABLE "ApiToken" ADD CONSTRAINT "ApiToken_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

ALTER TABLE "ModelProvider" ADD CONSTRAINT "ModelProvider_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES "Workspace"("id") ON DELETE CASCADE ON UPDATE CASCADE;

ALTER TABLE "ModelCapability" ADD CONSTRAINT "ModelCapability_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES "Workspace"("id") ON DELETE CASCADE ON UPDATE CASCADE;

ALTER TABLE "DesignerEvaluation" ADD CONSTRAINT "DesignerEvaluation_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES "Workspace"("id") ON DELETE CASCADE ON UPDATE CASCADE;

ALTER TABLE "Agent" ADD CONSTRAINT "Agent_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES "Workspace"("id") ON DELETE CASCADE ON UPDATE CASCADE;

ALTER TABLE "Tool" ADD CONSTRAINT "Tool_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES "Workspace"("id") ON DELETE CASCADE ON UPDATE CASCADE;

ALTER TABLE "Credential" ADD CONSTRAINT "Credential_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES "Workspace"("id") ON DELETE CASCADE ON UPDATE CASCADE;

ALTER TABLE "Workflow" ADD CONSTRAINT "Workflow_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES "Workspace"("id") ON DELETE CASCADE ON UPDATE CASCADE;

ALTER TABLE "Schedule" ADD CONSTRAINT "Schedule_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES "Workspace"("id") ON DELETE CASCADE ON UPDATE CASCADE;

ALTER TABLE "Webhook" ADD CONSTRAINT "Webhook_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES "Workspace"("id") ON DELETE CASCADE ON UPDATE CASCADE;

ALTER TABLE "RunNotifier" ADD CONSTRAINT "RunNotifier_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES "Workspace"("id") ON DELETE CASCADE ON UPDATE CASCADE;

ALTER TABLE "Run" ADD CONSTRAINT "Run_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES "Workspace"("id") ON DELETE CASCADE ON UPDATE CASCADE;

ALTER TABLE "ShareLink" ADD CONSTRAINT "ShareLink_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES "Workspace"("id") ON DELETE CASCADE ON UPDATE CASCADE;

ALTER TABLE "KbCollection" ADD CONSTRAINT "KbCollection_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES "Workspace"("id") ON DELETE CASCADE ON UPDATE CASCADE;

ALTER TABLE "Dataset" ADD CONSTRAINT "Dataset_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES "Workspace"("id") ON DELETE CASCADE ON UPDATE CASCADE;

ALTER TABLE "Experiment" ADD CONSTRAINT "Experiment_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES "Workspace"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Every new account gets its personal workspace in the same statement, whichever path creates it
-- (sign-up, the Auth.js adapter, seeds and tests).
-- The body spells its semicolons \073 (see 20261201160000_run_event_log_without_fk).
CREATE FUNCTION "weft_personal_workspace"() RETURNS trigger LANGUAGE plpgsql AS
  E'BEGIN INSERT INTO "Workspace" ("id", "name", "personalOf", "createdAt", "updatedAt") VALUES (NEW."id", \'Personal\', NEW."id", CURRENT_TIMESTAMP, CURRENT_TIMESTAMP)\073 INSERT INTO "Membership" ("workspaceId", "userId", "role", "createdAt") VALUES (NEW."id", NEW."id", \'owner\', CURRENT_TIMESTAMP)\073 RETURN NEW\073 END';

CREATE TRIGGER "User_personal_workspace" AFTER INSERT ON "User"
FOR EACH ROW EXECUTE FUNCTION "weft_personal_workspace"();
