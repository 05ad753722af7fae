-- CreateTable
CREATE TABLE "WebhookCall" (
    "id" TEXT NOT NULL,
    "webhookId" TEXT NOT NULL,
    "at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "status" INTEGER NOT NULL,
    "runId" TEXT,
    "error" TEXT,

    CONSTRAINT "WebhookCall_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "WebhookCall_webhookId_at_idx" ON "WebhookCall"("webhookId", "at");

-- AddForeignKey
ALTER TABLE "WebhookCall" ADD CONSTRAINT "WebhookCall_webhookId_fkey" FOREIGN KEY ("webhookId") REFERENCES "Webhook"("id") ON DELETE CASCADE ON UPDATE CASCADE;
