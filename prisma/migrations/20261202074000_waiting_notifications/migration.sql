-- Notifications of runs waiting for a human review: a delivery names its event and a key per wait.
ALTER TABLE "NotificationDelivery" ADD COLUMN "event" TEXT NOT NULL DEFAULT 'run.finished',
ADD COLUMN "key" TEXT NOT NULL DEFAULT 'finished';

DROP INDEX "NotificationDelivery_notifierId_runId_key";
CREATE UNIQUE INDEX "NotificationDelivery_notifierId_runId_key_key" ON "NotificationDelivery"("notifierId", "runId", "key");
